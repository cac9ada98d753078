// Publication (SPEC §6.6, §8, §19): under the store lock, sweep expired artifacts, evict the oldest
// until the new one fits the quota beside every spool, write its metadata and rename it into place.

import { rename } from "node:fs/promises";
import { ARTIFACT_LOCK_TIMEOUT_MS } from "../limits.js";
import type { ArtifactOutcome } from "../runtime/types.js";
import type { StoreLayout } from "./layout.js";
import { sweepExpired, type LedgerEntry, type PublishedLedger } from "./ledger.js";
import { acquireStoreLock } from "./lock.js";
import { METADATA_VERSION, writeMetadata } from "./metadata.js";
import { spooledBytes } from "./spool-usage.js";

/** What publication needs to know about its store. */
export interface PublishSettings {
  layout: StoreLayout;
  ledger: PublishedLedger;
  retentionMs: number;
  quotaBytes: number;
  now: () => number;
}

/** Stream sizes of a finished staging directory (the bytes actually in its files). */
export interface StagedSizes {
  stdout: number;
  stderr: number;
}

/**
 * Publishes a complete staging directory as artifact `id`. Never throws: any failure is an
 * `unavailable` outcome, and the caller removes the staging directory.
 */
export async function publishStaging(
  settings: PublishSettings,
  stagingDir: string,
  id: string,
  sizes: StagedSizes,
): Promise<ArtifactOutcome> {
  const bytes = sizes.stdout + sizes.stderr;
  if (bytes > settings.quotaBytes) return { status: "unavailable", reason: "QUOTA" };
  const lock = await acquireStoreLock(settings.layout.lockFile, ARTIFACT_LOCK_TIMEOUT_MS);
  if (lock === null) return { status: "unavailable", reason: "LOCK_TIMEOUT" };
  try {
    return await publishLocked(settings, stagingDir, id, sizes);
  } catch {
    return { status: "unavailable", reason: "WRITE_FAILED" };
  } finally {
    await lock.release();
    await settings.ledger.deleteRetired();
  }
}

async function publishLocked(
  settings: PublishSettings,
  stagingDir: string,
  id: string,
  sizes: StagedSizes,
): Promise<ArtifactOutcome> {
  const { layout, ledger, retentionMs, quotaBytes } = settings;
  const now = settings.now();
  const bytes = sizes.stdout + sizes.stderr;
  const entries = await sweepExpired(ledger, await ledger.entries(), retentionMs, now);
  // Spools (running executions, ended handles) count toward the quota and are never evicted here.
  const spools = await spooledBytes(layout, stagingDir);
  const budget = quotaBytes - bytes - spools;
  if (budget < 0) return { status: "unavailable", reason: "QUOTA" }; // evicting would not help
  const fits = await evictUntilFits(ledger, entries, budget);
  if (!fits) return { status: "unavailable", reason: "QUOTA" };
  const metadata = {
    version: METADATA_VERSION,
    publishedAt: now,
    stdoutBytes: sizes.stdout,
    stderrBytes: sizes.stderr,
  };
  await writeMetadata(stagingDir, metadata);
  await rename(stagingDir, layout.published(id));
  ledger.remember({ id, publishedAt: now, bytes, corrupt: false });
  return { status: "published", id };
}

/** Retires the oldest artifacts until the published total is at most `budget` bytes. */
async function evictUntilFits(
  ledger: PublishedLedger,
  oldestFirst: LedgerEntry[],
  budget: number,
): Promise<boolean> {
  let used = oldestFirst.reduce((sum, entry) => sum + entry.bytes, 0);
  for (const entry of oldestFirst) {
    if (used <= budget) break;
    if (await ledger.retire(entry.id)) used -= entry.bytes;
  }
  return used <= budget;
}
