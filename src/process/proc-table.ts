// Reads who is alive in a POSIX process group, telling live members from zombies (SPEC §6.5).

import { childProcess } from "../child-process.js";
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { withoutStackTraces } from "../without-stack-traces.js";

const ZOMBIE_STATES = new Set(["Z", "X", "x"]);
/** The longest a `ps` call may take (process-table reads, start times, ownership checks). */
export const PS_TIMEOUT_MS = 2_000;

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function pidExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** One process of the table: its pid, process group and whether it is still alive (not a zombie). */
export interface ProcessEntry {
  pid: number;
  pgid: number;
  live: boolean;
  /** Start time in clock ticks since boot (Linux), for telling a reused pid apart. */
  startTicks?: number;
  /** Start time as `ps -o lstart=` prints it (macOS and other POSIX). */
  startedAt?: string;
}

/** Parses one /proc/<pid>/stat line (the command name may hold spaces and parentheses). */
export function parseProcStat(text: string): ProcessEntry | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  const fields = text.slice(close + 2).split(" ");
  // fields[0] = state, [1] = ppid, [2] = pgrp, ..., [19] = starttime
  const state = fields[0] ?? "";
  const pgid = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (!Number.isInteger(pid) || !Number.isInteger(pgid)) return undefined;
  return { pid, pgid, live: !ZOMBIE_STATES.has(state), startTicks };
}

/** One /proc/<pid>/stat line is a few hundred bytes; a longer one is read whole instead. */
const STAT_BUFFER = Buffer.alloc(4096);

/**
 * Linux: the text of /proc/<pid>/stat, read with one open/read/close into a reused buffer (this
 * runs on every spawn, §16); throws like readFileSync when the process is gone.
 */
export function readProcStat(pid: number | string): string {
  const file = `/proc/${pid}/stat`;
  const fd = openSync(file, "r");
  let length: number;
  try {
    length = readSync(fd, STAT_BUFFER, 0, STAT_BUFFER.length, 0);
  } finally {
    closeSync(fd);
  }
  if (length === STAT_BUFFER.length) return readFileSync(file, "latin1");
  return STAT_BUFFER.toString("latin1", 0, length);
}

/** Linux: the members of a process group from /proc. */
function linuxGroupMembers(pgid: number): ProcessEntry[] {
  const members: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    let text: string;
    try {
      text = readProcStat(name);
    } catch {
      continue; // exited while we looked
    }
    const entry = parseProcStat(text);
    if (entry && entry.pgid === pgid) members.push(entry);
  }
  return members;
}

/** macOS and other POSIX: the members of a process group from `ps`. */
function psGroupMembers(pgid: number): Promise<ProcessEntry[]> {
  return new Promise((resolve) => {
    childProcess().execFile(
      "ps",
      ["-o", "pid=,pgid=,stat=", "-g", String(pgid)],
      { timeout: PS_TIMEOUT_MS },
      (_error, stdout) => {
        const members: ProcessEntry[] = [];
        for (const line of String(stdout ?? "").split("\n")) {
          const [pid, group, stat] = line.trim().split(/\s+/);
          if (!pid || !group || !stat) continue;
          if (Number(group) !== pgid) continue;
          members.push({ pid: Number(pid), pgid: Number(group), live: !stat.startsWith("Z") });
        }
        resolve(members);
      },
    );
  });
}

/** Whether any process (zombie or not) exists in the group: kill(-pgid, 0). */
export function groupExists(pgid: number): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    // ESRCH is the common answer (every execution asks once its leader exited)
    withoutStackTraces(() => process.kill(-pgid, 0));
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the group still has a live (non-zombie) member. */
export async function groupHasLiveMembers(pgid: number): Promise<boolean> {
  if (!groupExists(pgid)) return false;
  const members =
    process.platform === "linux" ? linuxGroupMembers(pgid) : await psGroupMembers(pgid);
  return members.some((member) => member.live);
}

/** Linux: the start time (clock ticks since boot) of a pid, or undefined when it is gone. */
export function processStartTicks(pid: number): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return parseProcStat(readProcStat(pid))?.startTicks;
  } catch {
    return undefined;
  }
}

/** Every process of a group with its start time (for crash-safe reaping). */
export function listGroupMembers(pgid: number): ProcessEntry[] {
  if (process.platform === "linux") return linuxGroupMembers(pgid);
  let out = "";
  try {
    out = childProcess().execFileSync(
      "ps",
      ["-o", "pid=,pgid=,stat=,lstart=", "-g", String(pgid)],
      {
        encoding: "utf8",
        timeout: PS_TIMEOUT_MS,
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
  } catch (error) {
    out = String((error as { stdout?: unknown }).stdout ?? ""); // ps exits 1 when none match
  }
  const members: ProcessEntry[] = [];
  for (const line of out.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
    if (!match || Number(match[2]) !== pgid) continue;
    const live = !match[3]!.startsWith("Z");
    members.push({ pid: Number(match[1]), pgid, live, startedAt: match[4] });
  }
  return members;
}
