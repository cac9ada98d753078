// TERM → grace → KILL → confirm, for timeouts, cancellation, shutdown and leftovers (SPEC §6.5).

import { setTimeout as sleep } from "node:timers/promises";
import type { CleanupError } from "./types.js";
import type { ProcessTree } from "./tree.js";

const POLL_INTERVAL_MS = 20;

export interface TerminationSteps {
  gracefulRequested: boolean;
  forceUsed: boolean;
  /** True when the tree was confirmed empty. */
  confirmed: boolean;
  cleanupError?: CleanupError;
}

export interface TerminationTimings {
  gracePeriodMs: number;
  finalTerminationWaitMs: number;
}

/** Polls `tree.isEmpty()` until true or `ms` elapse; resolves whether it became empty. */
export async function waitUntilEmpty(
  tree: ProcessTree,
  ms: number,
  abort?: AbortSignal,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await tree.isEmpty()) return true;
    if (abort?.aborted) return false;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(POLL_INTERVAL_MS, left));
  }
}

/**
 * Terminates a tree: graceful request, wait up to the grace period, force, wait up to the final
 * wait. `shortenGrace` (shutdown) aborts the grace wait early so force follows at once.
 */
export async function terminateTree(
  tree: ProcessTree,
  timings: TerminationTimings,
  shortenGrace?: AbortSignal,
): Promise<TerminationSteps> {
  const steps: TerminationSteps = { gracefulRequested: true, forceUsed: false, confirmed: false };
  const gracefulError = tree.requestGraceful();
  if (gracefulError) steps.cleanupError = gracefulError;
  if (await waitUntilEmpty(tree, timings.gracePeriodMs, shortenGrace)) {
    steps.confirmed = true;
    return steps;
  }
  steps.forceUsed = true;
  const forceError = tree.force();
  if (forceError) steps.cleanupError = forceError;
  if (await waitUntilEmpty(tree, timings.finalTerminationWaitMs)) {
    steps.confirmed = true;
    return steps;
  }
  steps.cleanupError ??= tree.unconfirmedError;
  return steps;
}
