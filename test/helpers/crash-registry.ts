// The crash-safety registry (SPEC §19) as the recovery tests plant it: where a server keeps it,
// and the file a server that died (SIGKILL) leaves for a group that outlived it.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { startTicks } from "./proc.js";

/** The registry directory of a server whose XDG_STATE_HOME is `stateHome`. */
export function registryIn(stateHome: string): string {
  return path.join(stateHome, "system-command-mcp/executions");
}

/**
 * A live group leader (a detached `sleep 60`, pushed on `pids` to be killed after the test) and a
 * dead server's file in `registry` recording its group, with the leader start time that
 * `recordedStart` makes of the real one (by default the real one). Returns the leader's pid.
 */
export function plantLeftover(
  registry: string,
  pids: number[],
  recordedStart: (ticks: string) => string = (ticks) => ticks,
): number {
  const leftover = spawn("sleep", ["60"], { detached: true, stdio: "ignore" });
  const pid = leftover.pid!;
  expect(pid).toBeGreaterThan(1);
  pids.push(pid);
  const dead = spawnSync("true");
  expect(dead.pid).toBeGreaterThan(1);
  mkdirSync(registry, { recursive: true });
  writeFileSync(
    path.join(registry, `${dead.pid}-1.json`),
    JSON.stringify({
      serverPid: dead.pid,
      serverStartTime: "1",
      groups: [{ pgid: pid, leaderStartTime: recordedStart(startTicks(pid)) }],
    }),
  );
  return pid;
}
