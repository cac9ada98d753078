// The store lock (SPEC §6.6, §8): serialises quota accounting, eviction, sweeping and publication
// between every server process sharing one store directory.
//
// The lock is a file created atomically by hard-linking a fully written temporary file to
// `store.lock` (link fails with EEXIST when the lock is held), holding the owner's pid, start
// token and a nonce. A lock whose owner is dead (or whose pid now belongs to a process started at
// another time) is broken by renaming it aside and checking the renamed content is the one found.

import { randomBytes } from "node:crypto";
import { link, rename, rm, unlink, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { errnoCode } from "../errors.js";
import { PRIVATE_FILE_MODE } from "./directory.js";
import { currentOwner, isOwnerAlive, type OwnerIdentity } from "./owner.js";
import { entryKind, readRegularFile } from "./safe-file.js";

/** Polling interval while another process holds the lock: starts small, doubles up to the max. */
const POLL_START_MS = 2;
const POLL_MAX_MS = 25;
const NONCE_BYTES = 8;

/** Name prefix of the temporary files a lock is linked from (removed at startup when stale). */
export const LOCK_TEMP_INFIX = ".tmp-";

/** A held lock; release() is idempotent. */
export interface StoreLock {
  release(): Promise<void>;
}

interface LockContent extends OwnerIdentity {
  nonce: string;
}

/** Why a lock could not be had: another process held it throughout, or it could not be written. */
export type LockFailure = "LOCK_TIMEOUT" | "WRITE_FAILED";

/**
 * Takes the lock, waiting at most `timeoutMs`. A temporary file that cannot be written (a full
 * disk) is WRITE_FAILED and removed; a held lock past the deadline is LOCK_TIMEOUT.
 */
export async function acquireStoreLock(
  file: string,
  timeoutMs: number,
): Promise<StoreLock | LockFailure> {
  const owner = await currentOwner();
  const nonce = randomBytes(NONCE_BYTES).toString("hex");
  const content = JSON.stringify({ pid: owner.pid, start: owner.start, nonce });
  const temp = `${file}${LOCK_TEMP_INFIX}${owner.pid}-${owner.start}-${nonce}`;
  try {
    try {
      await writeFile(temp, content, { mode: PRIVATE_FILE_MODE, flag: "wx" });
    } catch {
      return "WRITE_FAILED"; // the finally removes a temp file created before the write failed
    }
    const outcome = await linkUntil(temp, file, Date.now() + timeoutMs);
    return outcome === "held" ? heldLock(file, content) : outcome;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Retries the atomic link until it succeeds or the deadline passes, breaking dead owners' locks. */
async function linkUntil(
  temp: string,
  file: string,
  deadline: number,
): Promise<"held" | LockFailure> {
  const verdicts = new Map<string, boolean>();
  let pollMs = POLL_START_MS;
  const pause = async () => {
    await sleep(Math.min(pollMs, Math.max(1, deadline - Date.now())));
    pollMs = Math.min(pollMs * 2, POLL_MAX_MS);
  };
  for (;;) {
    try {
      await link(temp, file);
      return "held";
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") return "WRITE_FAILED";
    }
    const found = await readLock(file);
    if (Date.now() >= deadline) return "LOCK_TIMEOUT";
    // Released between the link and the read: try again at once.
    if (found === null) continue;
    if (found === ODD_ENTRY) {
      // Not a lock file at all (a planted directory, symlink or FIFO): moved aside and removed.
      if (!(await clearOddEntry(file))) await pause();
      continue;
    }
    if (!(await ownerAlive(found, verdicts))) {
      await breakStaleLock(file, found);
      continue;
    }
    await pause();
  }
}

/** Marks a `store.lock` that is not a regular file. */
const ODD_ENTRY = Symbol("not a lock file");

/** Longest lock file read (a few dozen bytes are written); longer content is not a lock. */
const MAX_LOCK_BYTES = 4096;

/** The lock file's content; null when it is gone; ODD_ENTRY when it is not a regular file. */
async function readLock(file: string): Promise<string | null | typeof ODD_ENTRY> {
  const kind = await entryKind(file);
  if (kind === "missing") return null;
  if (kind !== "file") return ODD_ENTRY;
  const bytes = await readRegularFile(file, MAX_LOCK_BYTES);
  // Replaced by something else between the two looks: decide on the next round.
  return bytes === null ? ODD_ENTRY : bytes.toString("utf8");
}

/** Renames a non-file `store.lock` aside and deletes it; false when it could not be moved. */
async function clearOddEntry(file: string): Promise<boolean> {
  const owner = await currentOwner();
  const aside = `${file}.broken-${owner.pid}-${owner.start}-${randomBytes(NONCE_BYTES).toString("hex")}`;
  try {
    await rename(file, aside);
  } catch (error) {
    return errnoCode(error) === "ENOENT";
  }
  await rm(aside, { recursive: true, force: true }).catch(() => undefined);
  return true;
}

/** Whether the lock's owner runs (cached per content for one acquisition: ps is slow on macOS). */
async function ownerAlive(content: string, verdicts: Map<string, boolean>): Promise<boolean> {
  const known = verdicts.get(content);
  if (known !== undefined) return known;
  const owner = parseLockContent(content);
  const alive = owner !== null && (await isOwnerAlive(owner));
  verdicts.set(content, alive);
  return alive;
}

/**
 * Moves a dead owner's lock aside. If what was moved is not what was judged dead (another process
 * broke it and took the lock in between), it is linked back so its live holder keeps it.
 */
async function breakStaleLock(file: string, judged: string): Promise<void> {
  const owner = await currentOwner();
  const nonce = randomBytes(NONCE_BYTES).toString("hex");
  const aside = `${file}.broken-${owner.pid}-${owner.start}-${nonce}`;
  try {
    await rename(file, aside);
  } catch {
    return;
  }
  const moved = (await readRegularFile(aside, MAX_LOCK_BYTES))?.toString("utf8") ?? null;
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function heldLock(file: string, content: string): StoreLock {
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      const found = (await readRegularFile(file, MAX_LOCK_BYTES))?.toString("utf8");
      if (found === content) await unlink(file).catch(() => undefined);
    },
  };
}

/** The owner recorded in a lock file; null when the content is not a lock (treated as dead). */
export function parseLockContent(text: string): LockContent | null {
  try {
    const value = JSON.parse(text) as Partial<LockContent>;
    const { pid, start, nonce } = value;
    if (typeof pid !== "number" || typeof start !== "string" || typeof nonce !== "string") {
      return null;
    }
    return { pid, start, nonce };
  } catch {
    return null;
  }
}
