// The store lock (SPEC §6.6, §8): serialises quota accounting, eviction, sweeping and publication
// between every server process sharing one store directory.
//
// The lock is a file created atomically by hard-linking a fully written temporary file to
// `store.lock` (link fails with EEXIST when the lock is held), holding the owner's pid, start
// token and a nonce. A lock whose owner is dead (or whose pid now belongs to a process started at
// another time) is broken by renaming it aside and checking the renamed content is the one found.

import { randomBytes } from "node:crypto";
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { errnoCode } from "../errors.js";
import { PRIVATE_FILE_MODE } from "./directory.js";
import { currentOwner, isOwnerAlive, type OwnerIdentity } from "./owner.js";

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

/** Takes the lock, waiting at most `timeoutMs`; null when it could not be had in time. */
export async function acquireStoreLock(file: string, timeoutMs: number): Promise<StoreLock | null> {
  const owner = await currentOwner();
  const nonce = randomBytes(NONCE_BYTES).toString("hex");
  const content = JSON.stringify({ pid: owner.pid, start: owner.start, nonce });
  const temp = `${file}${LOCK_TEMP_INFIX}${owner.pid}-${owner.start}-${nonce}`;
  try {
    await writeFile(temp, content, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  } catch {
    return null;
  }
  try {
    const held = await linkUntil(temp, file, Date.now() + timeoutMs);
    return held ? heldLock(file, content) : null;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Retries the atomic link until it succeeds or the deadline passes, breaking dead owners' locks. */
async function linkUntil(temp: string, file: string, deadline: number): Promise<boolean> {
  const verdicts = new Map<string, boolean>();
  let pollMs = POLL_START_MS;
  for (;;) {
    try {
      await link(temp, file);
      return true;
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") return false;
    }
    const found = await readFile(file, "utf8").catch(() => null);
    if (Date.now() >= deadline) return false;
    // Released between the link and the read: try again at once.
    if (found === null) continue;
    if (!(await ownerAlive(found, verdicts))) {
      await breakStaleLock(file, found);
      continue;
    }
    await sleep(Math.min(pollMs, Math.max(1, deadline - Date.now())));
    pollMs = Math.min(pollMs * 2, POLL_MAX_MS);
  }
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
  const moved = await readFile(aside, "utf8").catch(() => null);
  if (moved !== judged) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function heldLock(file: string, content: string): StoreLock {
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      const found = await readFile(file, "utf8").catch(() => null);
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
