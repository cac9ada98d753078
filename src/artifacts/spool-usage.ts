// Spools count toward the store quota (SPEC §19): the bytes of every staging directory — running
// executions' spools and ended handles' kept spools, of every server sharing the store.

import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { StreamName } from "../runtime/types.js";
import { streamFile, type StoreLayout } from "./layout.js";

const STREAMS: readonly StreamName[] = ["stdout", "stderr"];

/** Bytes currently held by spools in the store, not counting `except` (the one publishing). */
export async function spooledBytes(layout: StoreLayout, except: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(layout.stagingRoot);
  } catch {
    return 0;
  }
  let total = 0;
  for (const name of names) {
    const dir = path.join(layout.stagingRoot, name);
    if (dir === except) continue;
    for (const stream of STREAMS) {
      try {
        total += (await stat(streamFile(dir, stream))).size;
      } catch {
        // removed meanwhile, or not a spool
      }
    }
  }
  return total;
}
