// A long-lived `serve` bounds V8's young generation (SPEC §16: RSS after 10,000 executions
// ≤ 1.1 × RSS after the warm-up). See docs/performance.md, "Young generation".

import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import { runsServe } from "./argv.js";

/**
 * V8 doubles its semi-spaces (up to 16 MiB each on 64-bit) whenever as many bytes have survived
 * scavenges since the last growth as they hold. A server's per-call garbage survives a little
 * on every call, so over thousands of calls the young generation grows from 2 to 32 MiB of
 * resident memory without holding anything more. V8 reads the growth factor each time it
 * considers growing, so setting the flag after start takes effect; the heap-size flags do not.
 */
const GROWTH_FLAG = "--semi-space-growth-factor";
const HELD_FACTOR = 1;
const DEFAULT_FACTOR = 2;
/**
 * The young generation a server settles at: two 2 MiB semi-spaces. Smaller (V8's starting
 * 2 × 1 MiB) promotes the 1.4 MB base64 strings of `system_output` pages and doubles the major
 * collections while paging; larger only holds more garbage.
 */
export const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;

function setGrowthFactor(factor: number): boolean {
  try {
    v8.setFlagsFromString(`${GROWTH_FLAG}=${factor}`);
    return true;
  } catch {
    return false; // a Node without the flag keeps V8's default growth: more memory, same results
  }
}

/** The young generation's current capacity (both semi-spaces), in bytes. */
export function youngGenerationBytes(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  return space?.space_size ?? 0;
}

/**
 * At the entry, before the bundle is compiled: `serve` holds the young generation at V8's
 * starting size while it loads (V8's code cache records the flags, so the cache a run writes is
 * checked under the same flags). A short command keeps V8's default. Returns whether it held.
 */
export function holdYoungGeneration(argv: readonly string[] = process.argv.slice(2)): boolean {
  return runsServe(argv) && setGrowthFactor(HELD_FACTOR);
}

/**
 * Once serving: lets the young generation grow to `limit` and holds it there. Growth happens
 * only in a scavenge, and the next doubling needs as many surviving bytes again, so checking
 * after each collection stops it at the first size ≥ `limit`.
 */
export function settleYoungGeneration(limit = YOUNG_GENERATION_BYTES): void {
  if (youngGenerationBytes() >= limit || !setGrowthFactor(DEFAULT_FACTOR)) return;
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < limit) return;
    setGrowthFactor(HELD_FACTOR);
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
