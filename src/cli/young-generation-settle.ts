// Once serving, the young generation grows once to YOUNG_GENERATION_BYTES and is held there
// (young-generation.ts holds it while the server loads).

import { PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import { DEFAULT_FACTOR, HELD_FACTOR, setGrowthFactor } from "./young-generation.js";

/**
 * The young generation a server settles at: two 2 MiB semi-spaces. Smaller (V8's starting
 * 2 × 1 MiB) promotes the 1.4 MB base64 strings of `system_output` pages and doubles the major
 * collections while paging; larger only holds more garbage.
 */
export const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;

/** The young generation's current capacity (both semi-spaces), in bytes. */
export function youngGenerationBytes(): number {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  return space?.space_size ?? 0;
}

/**
 * Lets the young generation grow to `limit` and holds it there. Growth happens only in a
 * scavenge, and the next doubling needs as many surviving bytes again, so checking after each
 * collection stops it at the first size ≥ `limit` unless one task alone makes it double twice.
 */
export function settleYoungGeneration(limit = YOUNG_GENERATION_BYTES): void {
  if (youngGenerationBytes() >= limit) return;
  setGrowthFactor(v8, DEFAULT_FACTOR);
  const observer = new PerformanceObserver(() => {
    if (youngGenerationBytes() < limit) return;
    setGrowthFactor(v8, HELD_FACTOR);
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
