// Crash safety (SPEC §19): a server killed with SIGKILL leaves a registry file; the next server
// start kills the leftover group — and leaves a group whose id now belongs to someone else alone.

import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plantLeftover, registryIn } from "./helpers/crash-registry.js";
import { scratchPerTest } from "./helpers/proc.js";
import { startRawServer, startTreeCall } from "./helpers/raw-server.js";
import { baseEnv, configuredArgs, eventually, isAlive, startServer } from "./helpers/server.js";

let dir: string;
let stateHome: string;
const cleanup = scratchPerTest((made) => {
  dir = made;
  stateHome = path.join(dir, "state");
});

const registryDir = () => registryIn(stateHome);

function serverArgs() {
  return configuredArgs(dir, {
    version: 2,
    programs: { sh: { candidates: ["/bin/sh"], policy: { allowBackground: true } } },
  });
}

describe.runIf(process.platform === "linux")("crash recovery", () => {
  it("kills the background group a SIGKILLed server left, at the next start", async () => {
    const pidFile = path.join(dir, "bg.pid");
    const first = startRawServer(serverArgs(), baseEnv({ XDG_STATE_HOME: stateHome }));
    try {
      await first.initialize();
      const sleeper = await startTreeCall(first, 1, pidFile, { background: true });
      expect((await first.response(1)).result.structuredContent.status).toBe("running");
      cleanup.push(sleeper);
      first.child.kill("SIGKILL");
      await first.exited;
      expect(isAlive(sleeper)).toBe(true);
      expect(readdirSync(registryDir())).toHaveLength(1);

      const second = await startServer({
        args: serverArgs(),
        env: baseEnv({ XDG_STATE_HOME: stateHome }),
      });
      try {
        expect(await eventually(() => !isAlive(sleeper), 10_000)).toBe(true);
        expect(await eventually(() => second.stderr().includes("recovered 1 registry"))).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      if (first.child.exitCode === null) first.child.kill("SIGKILL");
    }
  });

  it("leaves alone a group whose id was reused by an unrelated process", async () => {
    // An unrelated process leading its own group, as a process that reused a recorded pid would:
    // the recorded leader was older.
    const pid = plantLeftover(registryDir(), cleanup, (ticks) => String(BigInt(ticks) - 1n));
    const server = await startServer({
      args: serverArgs(),
      env: baseEnv({ XDG_STATE_HOME: stateHome }),
    });
    try {
      expect(await eventually(() => readdirSync(registryDir()).length === 0, 10_000)).toBe(true);
      expect(isAlive(pid)).toBe(true);
      expect(
        await eventually(() => server.stderr().includes("left 1 reused group id(s) alone")),
      ).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("leaves the file of a live server alone", async () => {
    const running = await startServer({
      args: serverArgs(),
      env: baseEnv({ XDG_STATE_HOME: stateHome }),
    });
    try {
      await running.exec({ program: "sh", args: ["-c", "sleep 3"], background: true });
      expect(readdirSync(registryDir())).toHaveLength(1);
      const other = await startServer({
        args: serverArgs(),
        env: baseEnv({ XDG_STATE_HOME: stateHome }),
      });
      await other.call("system_environment");
      expect(readdirSync(registryDir()).length).toBeGreaterThanOrEqual(1);
      expect(other.stderr()).not.toContain("recovered");
      await other.close();
    } finally {
      await running.close();
    }
  });
});
