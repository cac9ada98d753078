// Spools in the store quota (SPEC §19): every staging directory counts — running executions'
// spools and ended handles' kept spools, of every server sharing the store. A kept spool carries
// an `ended` marker (its end time); those are evicted oldest first like artifacts, running ones
// never.

import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { STREAMS } from "../output/types.js";
import { PRIVATE_FILE_MODE } from "./directory.js";
import { streamFile, type StoreLayout } from "./layout.js";
import { readRegularFile, regularFileSize } from "./safe-file.js";

/** Longest `ended` marker read (a decimal timestamp is written). */
const MAX_MARKER_BYTES = 64;

/** The marker file naming when a kept spool's execution ended. */
export const ENDED_MARKER = "ended";

/** One spool in the store. */
export interface SpoolEntry {
  dir: string;
  bytes: number;
  /** When its execution ended (a kept spool, evictable), or undefined while it is running. */
  endedAt?: number;
}

/** Marks a spool as kept after its execution ended (so it may be evicted, oldest first). */
export async function markSpoolEnded(dir: string, endedAt: number): Promise<void> {
  await writeFile(path.join(dir, ENDED_MARKER), String(endedAt), { mode: PRIVATE_FILE_MODE });
}

/**
 * Kept spools never change once their `ended` marker exists (the execution has ended and its
 * writers are closed), so their sizes are read once per process, not at every publication (§16
 * growth: 64 kept handles were 192 file reads per publication). Bounded; a spool that is gone is
 * never listed again, whatever the cache holds, because only the directory's names are looked up.
 */
const keptSpools = new Map<string, SpoolEntry>();
const KEPT_SPOOL_CACHE_ENTRIES = 4096;

/** Every spool of the store except `except` (the one publishing). */
export async function listSpools(layout: StoreLayout, except: string): Promise<SpoolEntry[]> {
  let names: string[];
  try {
    names = await readdir(layout.stagingRoot);
  } catch {
    return [];
  }
  const spools: SpoolEntry[] = [];
  for (const name of names) {
    const dir = path.join(layout.stagingRoot, name);
    if (dir === except) continue;
    spools.push(keptSpools.get(dir) ?? (await readSpool(dir)));
  }
  return spools;
}

/** One spool's size and end time; the marker is read first, so a kept spool's sizes are final. */
async function readSpool(dir: string): Promise<SpoolEntry> {
  const marker = await readRegularFile(path.join(dir, ENDED_MARKER), MAX_MARKER_BYTES);
  const ended = marker === null ? undefined : Number(marker.toString("utf8"));
  const endedAt = Number.isFinite(ended) ? ended : undefined;
  let bytes = 0;
  for (const stream of STREAMS) {
    try {
      bytes += (await regularFileSize(streamFile(dir, stream))) ?? 0;
    } catch {
      // removed meanwhile, or not a spool
    }
  }
  const entry = { dir, bytes, endedAt };
  if (endedAt !== undefined) {
    if (keptSpools.size >= KEPT_SPOOL_CACHE_ENTRIES) {
      keptSpools.delete(keptSpools.keys().next().value!);
    }
    keptSpools.set(dir, entry);
  }
  return entry;
}

/** Removes a kept spool to make room (its handle's live reads then find it gone). */
export async function evictSpool(spool: SpoolEntry): Promise<boolean> {
  keptSpools.delete(spool.dir);
  try {
    await rm(spool.dir, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}
