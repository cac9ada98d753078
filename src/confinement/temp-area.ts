// The server's temp area for confined executions (SPEC §20): one per-user directory under the OS
// temp directory, and inside it one directory per execution (its private /tmp and an empty
// directory mounted over hidden directories), removed when the execution ends.

import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
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
 * Creates one execution's private directories under the area, synchronously (three small
 * syscalls; used when no spare is ready, and by the startup probe).
 */
export function createExecutionTemp(area: string): ExecutionTemp {
  const dir = mkdtempSync(path.join(area, `x-${process.pid}-`));
  const temp = executionTemp(dir);
  try {
    mkdirSync(temp.tmpDir, { mode: PRIVATE_MODE });
    mkdirSync(temp.emptyDir, { mode: EMPTY_MODE });
  } catch (error) {
    temp.removeSync();
    throw error;
  }
  return temp;
}

/** The same through the thread pool: prepares a spare without holding up the event loop. */
async function createExecutionTempAsync(
  area: string,
  made: (temp: ExecutionTemp) => void,
): Promise<ExecutionTemp> {
  const dir = await mkdtemp(path.join(area, `x-${process.pid}-`));
  const temp = executionTemp(dir);
  made(temp);
  try {
    await mkdir(temp.tmpDir, { mode: PRIVATE_MODE });
    await mkdir(temp.emptyDir, { mode: EMPTY_MODE });
  } catch (error) {
    temp.removeSync();
    throw error;
  }
  return temp;
}

/**
 * Removal goes through the thread pool, never synchronously on the event loop: a run below a Root
 * under /tmp leaves five or six directories (the mount points bubblewrap makes), and one rmdir on
 * this project's VMs (ext4 mounted `discard`) takes ~0.1 ms when quiet and ~2 ms under load, which
 * every call waited for before its response (docs/performance.md, confined).
 */
function executionTemp(dir: string): ExecutionTemp {
  let removal: Promise<void> | undefined;
  return {
    tmpDir: path.join(dir, "tmp"),
    emptyDir: path.join(dir, "empty"),
    remove: () =>
      (removal ??= rm(dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => {})),
    removeSync: () => {
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // best effort at shutdown; the next start removes what a dead server left
      }
    },
  };
}

/**
 * The execution directories of one server. Each execution takes a fresh directory (never one
 * another execution used); a spare is made ahead through the thread pool after each take, so
 * that the call that takes it does no directory syscalls before its spawn. Directories are
 * removed after their execution ended without being waited for (the result does not wait for
 * the disk), and every one not yet removed is removed synchronously at close.
 */
export class ExecutionTemps {
  /** The spare being made, or made. */
  private spare: Promise<ExecutionTemp | undefined> | undefined;
  /** The spare once its directory exists (close removes it synchronously). */
  private spareMade: ExecutionTemp | undefined;
  private readonly live = new Set<ExecutionTemp>();
  private closed = false;

  constructor(private readonly area: string) {}

  /** A fresh execution directory: the spare when it is ready, else one made now. */
  async take(): Promise<ExecutionTemp> {
    if (this.closed) throw new Error("the execution temp directories are closed");
    // Claimed before any await: concurrent takes never share a spare (one would see the other's
    // /tmp, and have it removed under it when the other ends).
    const spare = this.spare;
    this.spare = undefined;
    this.spareMade = undefined;
    const ready = spare === undefined ? undefined : await spare;
    if (this.closed) {
      // closed while this take waited: the spare it claimed is no one's to remove but its own
      ready?.removeSync();
      throw new Error("the execution temp directories are closed");
    }
    const temp = ready ?? createExecutionTemp(this.area);
    this.live.add(temp);
    this.prepareSpare();
    return temp;
  }

  /** Removes `temp` (through the thread pool); resolves once it is gone. */
  async release(temp: ExecutionTemp): Promise<void> {
    await temp.remove();
    this.live.delete(temp);
  }

  /** Removes every directory not yet removed, and the spare (server shutdown). */
  close(): void {
    this.closed = true;
    for (const temp of this.live) temp.removeSync();
    this.live.clear();
    this.spareMade?.removeSync();
    this.spareMade = undefined;
  }

  /** Resolves once the spare being made (if any) has landed, or been removed after close. */
  async settled(): Promise<void> {
    await this.spare;
  }

  private prepareSpare(): void {
    if (this.closed || this.spare !== undefined) return; // one spare at a time
    const made = createExecutionTempAsync(this.area, (temp) => {
      if (this.spare === made) this.spareMade = temp;
    }).then(
      (temp) => {
        // One whose directory appeared after close (mkdtemp was in flight) is removed at once;
        // the next start removes it if the process exited first (its name carries the pid).
        if (this.closed) temp.removeSync();
        return this.closed ? undefined : temp;
      },
      () => undefined,
    );
    this.spare = made;
  }
}
