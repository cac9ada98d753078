// Linux process facts read from /proc (start time, process group), and a per-test scratch
// directory whose processes, left alive on purpose by the test, are killed after it.

import { readFileSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";
import { isAlive, removeDir, tempDir } from "./server.js";

/** The fields of /proc/<pid>/stat after the command name: [0] the state, [2] pgrp, [19] start time. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Field 22 of /proc/<pid>/stat: the start time (clock ticks since boot) of a live pid. */
export function startTicks(pid: number): string {
  return statFields(pid)[19]!;
}

/** The process group id of a live pid. */
export function pgidOf(pid: number): number {
  return Number(statFields(pid)[2]);
}

/**
 * A fresh temp dir before each test (handed to `assign`); after it, every pid the test pushed on
 * the returned list that is still alive is SIGKILLed, then the dir is removed.
 */
export function scratchPerTest(assign: (dir: string) => void): number[] {
  const pids: number[] = [];
  let dir: string | undefined;
  beforeEach(() => {
    dir = tempDir();
    assign(dir);
  });
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      if (pid > 1 && isAlive(pid)) process.kill(pid, "SIGKILL");
    }
    if (dir) removeDir(dir);
  });
  return pids;
}
