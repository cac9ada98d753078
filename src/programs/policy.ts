// A program's effective policy: the manifest's fields over the contract's defaults (SPEC §9.3, §19).

import {
  DEFAULT_BACKGROUND_TIMEOUT_MS,
  DEFAULT_FINAL_TERMINATION_WAIT_MS,
  DEFAULT_GRACE_PERIOD_MS,
  MAX_FOREGROUND_TIMEOUT_MS,
} from "../limits.js";
import type { ArtifactPolicy, PolicyInput, ProgramPolicy } from "./types.js";

/** Artifacts are published when a stream was truncated, unless a policy says otherwise. */
export const DEFAULT_ARTIFACT_POLICY: ArtifactPolicy = "on-truncation";

/** Every policy field filled in; `defaultTimeoutMs` stays absent unless the manifest sets it. */
export function effectivePolicy(input: PolicyInput | undefined): ProgramPolicy {
  const policy: ProgramPolicy = {
    maxTimeoutMs: input?.maxTimeoutMs ?? MAX_FOREGROUND_TIMEOUT_MS,
    allowStdin: input?.allowStdin ?? false,
    gracePeriodMs: input?.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS,
    finalTerminationWaitMs: input?.finalTerminationWaitMs ?? DEFAULT_FINAL_TERMINATION_WAIT_MS,
    artifactPolicy: input?.artifactPolicy ?? DEFAULT_ARTIFACT_POLICY,
    allowBackground: input?.allowBackground ?? false,
    maxBackgroundTimeoutMs: input?.maxBackgroundTimeoutMs ?? DEFAULT_BACKGROUND_TIMEOUT_MS,
  };
  if (input?.defaultTimeoutMs !== undefined) policy.defaultTimeoutMs = input.defaultTimeoutMs;
  return policy;
}
