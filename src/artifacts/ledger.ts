// Quota and retention accounting over the published artifacts (SPEC §8). Every mutation happens
// under the store lock, so the directory listing taken under the lock is the truth; metadata is
// immutable once published, so each process caches what it has read.

import { randomBytes } from "node:crypto";
import { readdir, rename, rm } from "node:fs/promises";
import { artifactBytes, readMetadata } from "./metadata.js";
import { isArtifactId, type StoreLayout } from "./layout.js";

/** One published artifact as the quota sees it; corrupt ones have no metadata and are removed. */
export interface LedgerEntry {
  id: string;
  publishedAt: number;
  bytes: number;
  corrupt: boolean;
}

const TRASH_NONCE_BYTES = 6;

/** The published artifacts of one store, read under the lock. */
export class PublishedLedger {
  private readonly known = new Map<string, LedgerEntry>();
  /** `known` oldest first, kept while the set of artifacts is unchanged (a full store: 10,000). */
  private sorted: readonly LedgerEntry[] | undefined;
  private retired: string[] = [];

  constructor(private readonly layout: StoreLayout) {}

  /** Lists published artifacts, oldest first (call under the store lock; do not modify it). */
  async entries(): Promise<readonly LedgerEntry[]> {
    const names = await readdir(this.layout.publishedRoot);
    const present = new Set<string>();
    for (const name of names) if (isArtifactId(name)) present.add(name);
    for (const id of present) {
      if (!this.known.has(id)) {
        this.known.set(id, await this.readEntry(id));
        this.sorted = undefined;
      }
    }
    // `known` now holds every present id; the same size means the same set (a change by another
    // process shows here), else the ones gone are forgotten.
    if (this.known.size !== present.size) {
      for (const id of this.known.keys()) {
        if (!present.has(id)) this.forget(id);
      }
    }
    this.sorted ??= [...this.known.values()].sort(byAge);
    return this.sorted;
  }

  private forget(id: string): void {
    this.known.delete(id);
    this.sorted = undefined;
  }

  /** Moves an artifact out of the published directory (atomic for readers); false if it failed. */
  async retire(id: string): Promise<boolean> {
    const nonce = randomBytes(TRASH_NONCE_BYTES).toString("hex");
    const trashName = `${id}-${nonce}`;
    try {
      await rename(this.layout.published(id), this.layout.trash(trashName));
    } catch {
      return false;
    }
    this.forget(id);
    this.retired.push(trashName);
    return true;
  }

  /** Deletes what retire() moved to the trash (call after releasing the lock). */
  async deleteRetired(): Promise<void> {
    const names = this.retired;
    this.retired = [];
    for (const name of names) {
      await rm(this.layout.trash(name), { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Records an artifact this process has just published. */
  remember(entry: LedgerEntry): void {
    this.known.set(entry.id, entry);
    const newest = this.sorted?.[this.sorted.length - 1];
    // Usually the newest: appended to a copy (callers may still hold the old list), no re-sort.
    this.sorted =
      this.sorted && (newest === undefined || byAge(newest, entry) < 0)
        ? [...this.sorted, entry]
        : undefined;
  }

  private async readEntry(id: string): Promise<LedgerEntry> {
    const metadata = await readMetadata(this.layout.published(id));
    if (metadata === null) return { id, publishedAt: 0, bytes: 0, corrupt: true };
    const bytes = artifactBytes(metadata);
    return { id, publishedAt: metadata.publishedAt, bytes, corrupt: false };
  }
}

function byAge(a: LedgerEntry, b: LedgerEntry): number {
  return a.publishedAt - b.publishedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Whether an artifact published at `publishedAt` has passed its retention at `now`. */
export function isExpired(publishedAt: number, retentionMs: number, now: number): boolean {
  return now >= publishedAt + retentionMs;
}

/** Retires expired and corrupt artifacts; returns the ones still published (oldest first). */
export async function sweepExpired(
  ledger: PublishedLedger,
  entries: readonly LedgerEntry[],
  retentionMs: number,
  now: number,
): Promise<LedgerEntry[]> {
  const kept: LedgerEntry[] = [];
  for (const entry of entries) {
    const stale = entry.corrupt || isExpired(entry.publishedAt, retentionMs, now);
    if (stale && (await ledger.retire(entry.id))) continue;
    kept.push(entry);
  }
  return kept;
}

/** Empties the trash directory (outside the lock: nothing in it is reachable any more). */
export async function emptyTrash(layout: StoreLayout): Promise<void> {
  let names: string[];
  try {
    names = await readdir(layout.trashRoot);
  } catch {
    return;
  }
  for (const name of names) {
    await rm(layout.trash(name), { recursive: true, force: true }).catch(() => undefined);
  }
}
