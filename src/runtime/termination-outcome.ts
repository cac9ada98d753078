// The TerminationOutcome of a finished execution (SPEC §4, §6.3, §6.5): what its end needed —
// nothing (a natural exit with an empty group), or the termination steps that ran, with the
// reason that won and whether the tree was confirmed gone.

import type { TerminationSteps } from "../process/terminate.js";
import type { ProcessTree } from "../process/tree.js";
import type { TerminationOutcome, TerminationReason } from "./types.js";

/** The outcome for `steps` (undefined when none ran) and whether the pipes closed in time. */
export function terminationOutcome(
  reason: TerminationReason,
  tree: ProcessTree,
  steps: TerminationSteps | undefined,
  pipesClosed: boolean,
): TerminationOutcome {
  if (!steps && pipesClosed) {
    return {
      reason: null,
      gracefulRequested: false,
      forceUsed: false,
      treeCleaned: null,
      diagnostics: { adapter: "natural" },
    };
  }
  const outcome: TerminationOutcome = {
    reason,
    gracefulRequested: steps?.gracefulRequested ?? false,
    forceUsed: steps?.forceUsed ?? false,
    treeCleaned: pipesClosed ? (steps?.confirmed ?? null) : false,
    diagnostics: { adapter: steps ? tree.adapter : "natural" },
  };
  const cleanupError = pipesClosed ? steps?.cleanupError : "PIPES_HELD_OPEN";
  if (cleanupError) outcome.cleanupError = cleanupError;
  return outcome;
}
