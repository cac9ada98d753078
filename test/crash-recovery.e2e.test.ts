// Crash safety (SPEC §19): a server killed with SIGKILL leaves a registry file; the next server
// start kills the leftover group — and leaves a group whose id now belongs to someone else alone.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRawServer, startTreeCall } from "./helpers/raw-server.js";
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
let stateHome: string;
const cleanup: number[] = [];

beforeEach(() => {
  dir = tempDir();
  stateHome = path.join(dir, "state");
});

afterEach(() => {
  for (const pid of cleanup.splice(0)) {
    if (pid > 1 && isAlive(pid)) process.kill(pid, "SIGKILL");
  }
  removeDir(dir);
});

const registryDir = () => path.join(stateHome, "system-command-mcp/executions");

function serverArgs() {
  const manifest = writeManifest(dir, {
    version: 2,
    programs: { sh: { candidates: ["/bin/sh"], policy: { allowBackground: true } } },
  });
  return ["--manifest", manifest, "--root", dir, "--artifact-dir", path.join(dir, "artifacts")];
}

/** Linux start time (clock ticks since boot) of a live pid. */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
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
    // An unrelated process leading its own group, as a process that reused a recorded pid would.
    const unrelated = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
    const pid = unrelated.pid!;
    expect(pid).toBeGreaterThan(1);
    cleanup.push(pid);
    const dead = spawnSync("true");
    expect(dead.pid).toBeGreaterThan(1);
    mkdirSync(registryDir(), { recursive: true });
    const recordedStart = String(BigInt(startTicks(pid)) - 1n); // the recorded leader was older
    writeFileSync(
      path.join(registryDir(), `${dead.pid}-1.json`),
      JSON.stringify({
        serverPid: dead.pid,
        serverStartTime: "1",
        groups: [{ pgid: pid, leaderStartTime: recordedStart }],
      }),
    );
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
