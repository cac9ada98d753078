// The server's temp area for confined executions (SPEC §20): one per-user directory under the OS
// temp directory, and inside it one directory per execution (its private /tmp and an empty
// directory mounted over hidden directories), removed when the execution ends.

import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmdirSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CommandError } from "../errors.js";
import { pidExists } from "../process/proc-table.js";
import { SANDBOX_TEMP_PREFIX } from "./constants.js";

/** Owner-only permissions of every directory made here. */
const PRIVATE_MODE = 0o700;
/** The empty directory is read-only even to its owner. */
const EMPTY_MODE = 0o500;

/** One execution's directories (host paths). */
export interface ExecutionTemp {
  /** Mounted at /tmp inside the sandbox. */
  tmpDir: string;
  /** Mounted read-only over hidden directories. */
  emptyDir: string;
  /** Removes both; idempotent, never throws. */
  remove(): Promise<void>;
  /** The same, synchronously (at shutdown, right before the process exits). */
  removeSync(): void;
}

/** The per-user temp area, created 0700 if missing; refused when it is not ours or not private. */
export function openTempArea(base: string = os.tmpdir()): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const area = path.join(realpathSync(base), `${SANDBOX_TEMP_PREFIX}${uid}`);
  mkdirSync(area, { recursive: true, mode: PRIVATE_MODE });
  const info = lstatSync(area);
  const ours = typeof process.getuid !== "function" || info.uid === process.getuid();
  if (!info.isDirectory() || !ours || (info.mode & 0o077) !== 0) {
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `the sandbox temp area ${area} must be a directory owned by this user with mode 0700; ` +
        `remove it (or fix its owner and mode) and start again`,
    );
  }
  removeStale(area);
  return area;
}

/** Removes execution directories whose server (the pid in their name) is dead. */
function removeStale(area: string): void {
  for (const name of readdirSync(area)) {
    const pid = Number(/^x-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid || pidExists(pid)) continue;
    try {
      rmSync(path.join(area, name), { recursive: true, force: true });
    } catch {
      // left for a later start
    }
  }
}

/**
 * How many entries an execution's directory may hold to be removed synchronously: the mount
 * points bubblewrap makes in the private /tmp (a Root below /tmp) and a few files. A program that
 * left more has its directory removed through the thread pool instead of holding up the server.
 */
const SYNC_REMOVE_ENTRIES = 64;

/**
 * Removes `dir` and what it holds, synchronously, when that is at most `budget.left` entries;
 * false (with part of it maybe removed) when there is more, or something could not be removed.
 * Lists before removing, so that the usual case throws nothing.
 */
function removeSmallTree(dir: string, budget: { left: number }): boolean {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (--budget.left < 0) return false;
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!removeSmallTree(child, budget)) return false;
      } else {
        unlinkSync(child);
      }
    }
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Creates one execution's private directories under the area. Synchronous on purpose: three
 * small syscalls cost less than three trips through the thread pool on a busy machine.
 */
export function createExecutionTemp(area: string): ExecutionTemp {
  const dir = mkdtempSync(path.join(area, `x-${process.pid}-`));
  const tmpDir = path.join(dir, "tmp");
  const emptyDir = path.join(dir, "empty");
  const remove = async () => {
    // Most programs leave their /tmp empty or nearly: a few syscalls, no trip through the
    // thread pool (SPEC §16, confined calls).
    if (removeSmallTree(dir, { left: SYNC_REMOVE_ENTRIES })) return;
    await rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => {});
  };
  const removeSync = () => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort at shutdown; the next start removes what a dead server left
    }
  };
  try {
    mkdirSync(tmpDir, { mode: PRIVATE_MODE });
    mkdirSync(emptyDir, { mode: EMPTY_MODE });
  } catch (error) {
    removeSync();
    throw error;
  }
  return { tmpDir, emptyDir, remove, removeSync };
}
