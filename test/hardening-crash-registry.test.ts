// One odd entry in the crash-safety directory (§19) must not disable recovery (#14): entries that
// are not regular files are skipped and logged, every real leftover is still reaped.

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reapDeadServers } from "../src/process/crash-registry.js";
import {
  baseEnv,
  eventually,
  isAlive,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
} from "./helpers/server.js";

let dir: string;
const cleanup: number[] = [];

beforeEach(() => {
  dir = tempDir();
});

afterEach(() => {
  for (const pid of cleanup.splice(0)) {
    if (pid > 1 && isAlive(pid)) process.kill(pid, "SIGKILL");
  }
  removeDir(dir);
});

function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
}

/** A live group leader left by a "dead server", and that server's registry file. */
function plantLeftover(registry: string): number {
  const leftover = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  const pid = leftover.pid!;
  expect(pid).toBeGreaterThan(1);
  cleanup.push(pid);
  const dead = spawnSync("true");
  expect(dead.pid).toBeGreaterThan(1);
  writeFileSync(
    path.join(registry, `${dead.pid}-1.json`),
    JSON.stringify({
      serverPid: dead.pid,
      serverStartTime: "1",
      groups: [{ pgid: pid, leaderStartTime: startTicks(pid) }],
    }),
  );
  return pid;
}

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
    const pid = plantLeftover(registry);
    const report = reapDeadServers(registry);
    expect(report.files).toBe(1);
    expect(report.killed).toBe(1);
    expect(report.skippedEntries).toEqual(odd);
    expect(await eventually(() => !isAlive(pid), 5000)).toBe(true);
    expect(readdirSync(registry).sort()).toEqual(odd);
  });

  it("logs the skipped entries on stderr at server start", async () => {
    const stateHome = path.join(dir, "state");
    const registry = path.join(stateHome, "system-command-mcp/executions");
    mkdirSync(registry, { recursive: true });
    plantOddEntries(registry);
    const pid = plantLeftover(registry);
    const manifest = writeManifest(dir, {
      version: 2,
      programs: { sh: { candidates: ["/bin/sh"] } },
    });
    const server = await startServer({
      args: ["--manifest", manifest, "--root", dir, "--artifact-dir", path.join(dir, "artifacts")],
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
