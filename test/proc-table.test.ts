// The process-table reads of SPEC §6.5 and §19 on Linux: a process's start time from
// /proc/<pid>/stat (read into a reused buffer), a group's members, and whether a group exists.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  groupExists,
  groupHasLiveMembers,
  listGroupMembers,
  parseProcStat,
  processStartTicks,
} from "../src/process/proc-table.js";

const linux = process.platform === "linux";

describe.runIf(linux)("proc-table on Linux", () => {
  it("reads a process's start time as /proc/<pid>/stat gives it", () => {
    const expected = parseProcStat(readFileSync(`/proc/${process.pid}/stat`, "latin1"))!;
    expect(expected.startTicks).toBeGreaterThan(0);
    expect(processStartTicks(process.pid)).toBe(expected.startTicks);
    // twice in a row from the reused buffer: the same answer, not a leftover of another pid
    expect(processStartTicks(1)).toBe(
      parseProcStat(readFileSync("/proc/1/stat", "latin1"))!.startTicks,
    );
    expect(processStartTicks(process.pid)).toBe(expected.startTicks);
  });

  it("gives no start time for a pid that does not exist", () => {
    const pidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8"));
    expect(processStartTicks(pidMax + 1)).toBeUndefined();
  });

  it("tells a live group from one that is gone, with its members", async () => {
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    const pid = child.pid!;
    expect(pid).toBeGreaterThan(1);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      expect(groupExists(pid)).toBe(true);
      expect(await groupHasLiveMembers(pid)).toBe(true);
      const members = listGroupMembers(pid);
      expect(members.map((member) => member.pid)).toContain(pid);
      expect(members.find((member) => member.pid === pid)?.startTicks).toBe(processStartTicks(pid));
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    expect(groupExists(pid)).toBe(false);
    expect(await groupHasLiveMembers(pid)).toBe(false);
  });

  it("answers a missing group without changing how errors record their stacks", () => {
    const limit = Error.stackTraceLimit;
    expect(groupExists(2 ** 22 + 12345)).toBe(false);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
