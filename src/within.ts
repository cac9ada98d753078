// The one race of a promise against a timer (node:timers/promises), used wherever the runtime
// or a stage stops waiting. A shared leaf module, so stages may use it too.

import { setTimeout as delay } from "node:timers/promises";

/** Resolves with the promise's value, or with `fallback` after `ms`; the timer never outlives it. */
export async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  const timer = new AbortController();
  const timeout = delay(ms, fallback, { signal: timer.signal }).catch(() => fallback);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    timer.abort();
  }
}
