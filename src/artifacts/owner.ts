// Who owns a lock or a staging directory: a pid plus that process's start time, so that a pid
// reused by an unrelated process is never mistaken for the owner (SPEC §8, §17).

import { childProcess } from "../child-process.js";
import { readFile } from "node:fs/promises";
import { pidExists, PS_TIMEOUT_MS } from "../process/proc-table.js";

/** A process identity: pid and a start token (letters and digits only, safe in file names). */
export interface OwnerIdentity {
  pid: number;
  start: string;
}

/** Start tokens by platform: L = Linux clock ticks since boot, D = macOS start second, P = pid only. */
const LINUX_PREFIX = "L";
const DARWIN_PREFIX = "D";
const UNVERIFIED_PREFIX = "P";

let current: Promise<OwnerIdentity> | undefined;

/** This process's identity (computed once). */
export function currentOwner(): Promise<OwnerIdentity> {
  current ??= computeCurrent();
  return current;
}

async function computeCurrent(): Promise<OwnerIdentity> {
  const pid = process.pid;
  const start = await startToken(pid);
  return { pid, start: start ?? `${UNVERIFIED_PREFIX}${pid}` };
}

/**
 * Whether the process that wrote `owner` still runs. A pid that exists but started at another
 * time is a different process: dead owner. Where the start time cannot be read (Windows, other
 * systems) an existing pid counts as alive, which errs towards keeping data.
 */
export async function isOwnerAlive(owner: OwnerIdentity): Promise<boolean> {
  if (!pidExists(owner.pid)) return false;
  if (owner.start.startsWith(UNVERIFIED_PREFIX)) return true;
  const start = await startToken(owner.pid);
  if (start === undefined) return true;
  return start === owner.start;
}

/** The start token of a live process; null when it is gone; undefined when it cannot be told. */
async function startToken(pid: number): Promise<string | null | undefined> {
  if (process.platform === "linux") return linuxStartToken(pid);
  if (process.platform === "darwin") return darwinStartToken(pid);
  return `${UNVERIFIED_PREFIX}${pid}`;
}

/** Field 22 of /proc/<pid>/stat (start time in ticks since boot); a zombie counts as gone. */
async function linuxStartToken(pid: number): Promise<string | null> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const ticks = fields[19];
  if (state === "Z" || state === "X" || !ticks || !/^[0-9]+$/.test(ticks)) return null;
  return `${LINUX_PREFIX}${ticks}`;
}

/** `ps -o lstart=` gives the start time to the second; ps exits 1 with no output for no process. */
function darwinStartToken(pid: number): Promise<string | null | undefined> {
  return new Promise((resolve) => {
    const args = ["-o", "lstart=", "-p", String(pid)];
    childProcess().execFile("ps", args, { timeout: PS_TIMEOUT_MS }, (error, stdout) => {
      const text = String(stdout).trim();
      const parsed = Date.parse(text);
      if (!Number.isNaN(parsed)) resolve(`${DARWIN_PREFIX}${Math.floor(parsed / 1000)}`);
      else if (error && (error as { code?: unknown }).code === 1 && text === "") resolve(null);
      else resolve(undefined);
    });
  });
}
