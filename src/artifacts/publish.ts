// Publication (SPEC §6.6, §8, §19): under the store lock, sweep expired artifacts, evict the oldest
// until the new one fits the quota beside every spool, write its metadata and rename it into place.

import { rename } from "node:fs/promises";
import { ARTIFACT_LOCK_TIMEOUT_MS } from "../limits.js";
import type { ArtifactOutcome } from "./types.js";
import type { StoreLayout } from "./layout.js";
import { sweepExpired, type LedgerEntry, type PublishedLedger } from "./ledger.js";
import { acquireStoreLock } from "./lock.js";
import { METADATA_VERSION, writeMetadata } from "./metadata.js";
import { evictSpool, listSpools, type SpoolEntry } from "./spool-usage.js";

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
  if (typeof lock === "string") return { status: "unavailable", reason: lock };
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
  // Spools count toward the quota: running ones are never evicted, kept ones (ended handles) are
  // evicted oldest first together with published artifacts.
  const spools = await listSpools(layout, stagingDir);
  const running = spools.filter((spool) => spool.endedAt === undefined);
  const budget = quotaBytes - bytes - running.reduce((sum, spool) => sum + spool.bytes, 0);
  if (budget < 0) return { status: "unavailable", reason: "QUOTA" }; // evicting would not help
  const kept = spools.filter((spool) => spool.endedAt !== undefined);
  const fits = await evictUntilFits(ledger, entries, kept, budget);
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

/**
 * Retires the oldest published artifacts and kept spools (by publication / end time) until they
 * total at most `budget` bytes.
 */
async function evictUntilFits(
  ledger: PublishedLedger,
  artifacts: readonly LedgerEntry[],
  kept: SpoolEntry[],
  budget: number,
): Promise<boolean> {
  let total = 0;
  for (const entry of artifacts) total += entry.bytes;
  for (const spool of kept) total += spool.bytes;
  if (total <= budget) return true; // the usual case: nothing to evict, nothing to sort
  const candidates = [
    ...artifacts.map((entry) => ({
      at: entry.publishedAt,
      bytes: entry.bytes,
      evict: () => ledger.retire(entry.id),
    })),
    ...kept.map((spool) => ({
      at: spool.endedAt!,
      bytes: spool.bytes,
      evict: () => evictSpool(spool),
    })),
  ].sort((a, b) => a.at - b.at);
  let used = candidates.reduce((sum, candidate) => sum + candidate.bytes, 0);
  for (const candidate of candidates) {
    if (used <= budget) break;
    if (await candidate.evict()) used -= candidate.bytes;
  }
  return used <= budget;
}
