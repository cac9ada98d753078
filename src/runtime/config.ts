// Runtime settings from the command line, checked against each other (SPEC §7, §8, §13, §19).

import { CommandError } from "../errors.js";
import {
  DEFAULT_ARTIFACT_MAX_STREAM_BYTES,
  DEFAULT_ARTIFACT_QUOTA_BYTES,
  DEFAULT_ARTIFACT_RETENTION_MS,
  DEFAULT_INLINE_BUDGET_BYTES,
  DEFAULT_MAX_BACKGROUND_EXECUTIONS,
  DEFAULT_MAX_CONCURRENT_EXECUTIONS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_YIELD_MS,
  MAX_OUTPUT_BYTES_EFFECTIVE,
} from "../limits.js";
import { headBytesFor, largestShare, type InlineBudget } from "../output/inline-budget.js";

/** Flags as given (each already range-checked by the CLI); absent ones take defaults. */
export interface RuntimeFlags {
  maxOutputBytes?: number;
  inlineBudgetBytes?: number;
  inlineHeadBytes?: number;
  defaultTimeoutMs?: number;
  maxConcurrentExecutions?: number;
  artifactDir?: string;
  artifactRetentionMs?: number;
  artifactQuotaBytes?: number;
  artifactMaxStreamBytes?: number;
  yieldMs?: number;
  maxBackgroundExecutions?: number;
}

/** Every runtime setting, effective. */
export interface RuntimeSettings {
  maxOutputBytes: number;
  inlineBudgetBytes: number;
  /** What `limits.inlineHeadBytes` reports: the given head, else a quarter of the largest share. */
  inlineHeadBytes: number;
  /** The budget both excerpts share (§7), as the projection uses it. */
  inlineBudget: InlineBudget;
  defaultTimeoutMs: number;
  maxConcurrentExecutions: number;
  artifactDir?: string;
  artifactRetentionMs: number;
  artifactQuotaBytes: number;
  artifactMaxStreamBytes: number;
  yieldMs: number;
  maxBackgroundExecutions: number;
}

/** Applies defaults and cross-flag rules; conflicting flags are INVALID_RUNTIME_CONFIG. */
export function resolveSettings(flags: RuntimeFlags): RuntimeSettings {
  const maxOutputBytes = Math.min(
    flags.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    MAX_OUTPUT_BYTES_EFFECTIVE,
  );
  // §7: an explicit --max-output-bytes alone keeps the earlier per-stream behaviour (no sharing).
  const inlineBudgetBytes =
    flags.inlineBudgetBytes ??
    (flags.maxOutputBytes !== undefined ? 2 * maxOutputBytes : DEFAULT_INLINE_BUDGET_BYTES);
  if (flags.inlineHeadBytes !== undefined && flags.inlineHeadBytes > maxOutputBytes) {
    throw new CommandError(
      "INVALID_RUNTIME_CONFIG",
      `--inline-head-bytes must be at most the effective --max-output-bytes ` +
        `(${maxOutputBytes}), got ${flags.inlineHeadBytes}`,
    );
  }
  const inlineBudget: InlineBudget = {
    maxOutputBytes,
    budgetBytes: inlineBudgetBytes,
    ...(flags.inlineHeadBytes !== undefined && { headBytes: flags.inlineHeadBytes }),
  };
  const inlineHeadBytes =
    flags.inlineHeadBytes ?? headBytesFor(largestShare(inlineBudget), inlineBudget);
  return {
    maxOutputBytes,
    inlineBudgetBytes,
    inlineHeadBytes,
    inlineBudget,
    defaultTimeoutMs: flags.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxConcurrentExecutions: flags.maxConcurrentExecutions ?? DEFAULT_MAX_CONCURRENT_EXECUTIONS,
    artifactDir: flags.artifactDir,
    artifactRetentionMs: flags.artifactRetentionMs ?? DEFAULT_ARTIFACT_RETENTION_MS,
    artifactQuotaBytes: flags.artifactQuotaBytes ?? DEFAULT_ARTIFACT_QUOTA_BYTES,
    artifactMaxStreamBytes: flags.artifactMaxStreamBytes ?? DEFAULT_ARTIFACT_MAX_STREAM_BYTES,
    yieldMs: flags.yieldMs ?? DEFAULT_YIELD_MS,
    maxBackgroundExecutions: flags.maxBackgroundExecutions ?? DEFAULT_MAX_BACKGROUND_EXECUTIONS,
  };
}
