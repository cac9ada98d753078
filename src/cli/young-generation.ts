// A long-lived `serve` bounds V8's young generation (SPEC §16: RSS after 10,000 executions
// ≤ 1.1 × RSS after the warm-up). See docs/performance.md, "Young generation". This half runs
// in the entry for every command, so it loads nothing but the argv rule; the serving half is
// young-generation-settle.ts.

import type v8 from "node:v8";
import { runsServe } from "./argv.js";

/**
 * V8 doubles its semi-spaces (up to 16 MiB each on 64-bit) whenever as many bytes have survived
 * scavenges since the last growth as they hold. A server's per-call garbage survives a little
 * on every call, so over thousands of calls the young generation grows from 2 to 32 MiB of
 * resident memory without holding anything more. V8 reads the growth factor each time it
 * considers growing, so setting the flag after start takes effect; the heap-size flags do not.
 */
export const GROWTH_FLAG = "--semi-space-growth-factor";
export const HELD_FACTOR = 1;
export const DEFAULT_FACTOR = 2;

/** The part of `node:v8` this needs (the entry passes a lazy require of it). */
export type FlagSetter = Pick<typeof v8, "setFlagsFromString">;

/**
 * Sets the growth factor. There is no fallback to write: setFlagsFromString never throws — V8
 * ignores a flag it does not know with one line on stderr (never stdout, so the protocol is safe).
 * Every Node this package supports (≥ 20) knows the flag; test/young-generation.test.ts pins its
 * effect (the young generation stays held under churn), so a Node that dropped it fails there.
 */
export function setGrowthFactor(v8module: FlagSetter, factor: number): void {
  v8module.setFlagsFromString(`${GROWTH_FLAG}=${factor}`);
}

/**
 * At the entry, before the bundle is compiled: `serve` holds the young generation at V8's
 * starting size while it loads. A short command keeps V8's default and never loads `node:v8`
 * (`loadV8` is called only for serve). Returns whether it held.
 */
export function holdYoungGeneration(
  loadV8: () => FlagSetter,
  argv: readonly string[] = process.argv.slice(2),
): boolean {
  if (!runsServe(argv)) return false;
  setGrowthFactor(loadV8(), HELD_FACTOR);
  return true;
}
