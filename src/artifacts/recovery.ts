// Startup recovery (SPEC §8): a crash leaves no permanent litter. Staging directories and lock
// temporaries of dead owners are removed, the trash is emptied, and expired or corrupt artifacts
// are swept (under the lock, skipped when another process holds it for too long).

import { readdir, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { ARTIFACT_LOCK_TIMEOUT_MS, MAX_ARTIFACT_RETENTION_MS } from "../limits.js";
import { LOCK_FILE, parseStagingName, type StoreLayout } from "./layout.js";
import { emptyTrash, sweepExpired, type PublishedLedger } from "./ledger.js";
import { acquireStoreLock } from "./lock.js";
import { isOwnerAlive, type OwnerIdentity } from "./owner.js";

/** Entries in staging/ that are not named by this code are removed once this old. */
const STRAY_ENTRY_AGE_MS = MAX_ARTIFACT_RETENTION_MS;

/** Lock temporaries: `store.lock.tmp-<pid>-<start>-<nonce>` and `store.lock.broken-…`. */
const LOCK_LITTER_PATTERN = new RegExp(
  `^${LOCK_FILE.replace(".", "\\.")}\\.(?:tmp|broken)-([1-9][0-9]*)-([A-Za-z0-9]+)-[0-9a-f]+$`,
);

export interface RecoverySettings {
  layout: StoreLayout;
  ledger: PublishedLedger;
  retentionMs: number;
  now: () => number;
}

/** Runs every startup clean-up; never throws. */
export async function recoverStore(settings: RecoverySettings): Promise<void> {
  const { layout } = settings;
  await removeDeadStagings(layout, Date.now()).catch(() => undefined);
  await removeLockLitter(layout).catch(() => undefined);
  await emptyTrash(layout);
  await sweepAtStartup(settings).catch(() => undefined);
}

/** Staging directories whose owner process is gone (pid dead, or reused by a newer process).
 * `now` is wall-clock time, compared with file modification times. */
async function removeDeadStagings(layout: StoreLayout, now: number): Promise<void> {
  const verdicts = new Map<string, Promise<boolean>>();
  for (const name of await readdir(layout.stagingRoot)) {
    const parsed = parseStagingName(name);
    const dead = parsed
      ? !(await ownerAlive(parsed, verdicts))
      : await olderThan(layout.staging(name), now - STRAY_ENTRY_AGE_MS);
    if (dead) await rm(layout.staging(name), { recursive: true, force: true }).catch(() => {});
  }
}

async function removeLockLitter(layout: StoreLayout): Promise<void> {
  const verdicts = new Map<string, Promise<boolean>>();
  for (const name of await readdir(layout.root)) {
    const match = LOCK_LITTER_PATTERN.exec(name);
    if (!match) continue;
    const owner = { pid: Number(match[1]), start: match[2]! };
    if (!(await ownerAlive(owner, verdicts))) {
      await unlink(path.join(layout.root, name)).catch(() => undefined);
    }
  }
}

/** One liveness check per owner (several staging directories often share one). */
function ownerAlive(
  owner: OwnerIdentity,
  verdicts: Map<string, Promise<boolean>>,
): Promise<boolean> {
  const key = `${owner.pid}-${owner.start}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = isOwnerAlive(owner);
    verdicts.set(key, verdict);
  }
  return verdict;
}

async function olderThan(file: string, cutoff: number): Promise<boolean> {
  try {
    return (await stat(file)).mtimeMs < cutoff;
  } catch {
    return false;
  }
}

/** Expired and corrupt artifacts go at startup too, not only when something is published. */
async function sweepAtStartup(settings: RecoverySettings): Promise<void> {
  const { layout, ledger } = settings;
  const lock = await acquireStoreLock(layout.lockFile, ARTIFACT_LOCK_TIMEOUT_MS);
  if (typeof lock === "string") return;
  try {
    await sweepExpired(ledger, await ledger.entries(), settings.retentionMs, settings.now());
  } finally {
    await lock.release();
    await ledger.deleteRetired();
  }
}
