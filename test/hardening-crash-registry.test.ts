// One odd entry in the crash-safety directory (§19) must not disable recovery (#14): entries that
// are not regular files are skipped and logged, every real leftover is still reaped.

import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reapDeadServers } from "../src/process/crash-registry.js";
import { plantLeftover, registryIn } from "./helpers/crash-registry.js";
import { scratchPerTest } from "./helpers/proc.js";
import { baseEnv, configuredArgs, eventually, isAlive, startServer } from "./helpers/server.js";

let dir: string;
const cleanup = scratchPerTest((made) => (dir = made));

/** A directory, a FIFO and a symlink, each named like a registry file. */
function plantOddEntries(registry: string): string[] {
  mkdirSync(path.join(registry, "x.json"));
  execFileSync("mkfifo", ["-m", "600", path.join(registry, "y.json")]);
  symlinkSync("/etc/passwd", path.join(registry, "z.json"));
  return ["x.json", "y.json", "z.json"];
}

describe.runIf(process.platform === "linux")("crash recovery with odd entries", () => {
  it("skips entries that are not regular files and reaps the rest", async () => {
    const registry = path.join(dir, "executions");
    mkdirSync(registry);
    const odd = plantOddEntries(registry);
    const pid = plantLeftover(registry, cleanup);
    const report = reapDeadServers(registry);
    expect(report.files).toBe(1);
    expect(report.killed).toBe(1);
    expect(report.skippedEntries).toEqual(odd);
    expect(await eventually(() => !isAlive(pid), 5000)).toBe(true);
    expect(readdirSync(registry).sort()).toEqual(odd);
  });

  it("logs the skipped entries on stderr at server start", async () => {
    const stateHome = path.join(dir, "state");
    const registry = registryIn(stateHome);
    mkdirSync(registry, { recursive: true });
    plantOddEntries(registry);
    const pid = plantLeftover(registry, cleanup);
    const server = await startServer({
      args: configuredArgs(dir, { version: 2, programs: { sh: { candidates: ["/bin/sh"] } } }),
      env: baseEnv({ XDG_STATE_HOME: stateHome }),
    });
    try {
      await server.call("system_environment");
      expect(await eventually(() => !isAlive(pid), 10_000)).toBe(true);
      expect(
        await eventually(() =>
          /skipped 3 entr(y|ies) that are not regular files/.test(server.stderr()),
        ),
      ).toBe(true);
      expect(server.stderr()).toContain("x.json");
    } finally {
      await server.close();
    }
  });
});
