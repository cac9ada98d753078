// The process stage's own shapes: how a process tree ended (SPEC §6.5, §4 `termination`).

/** Why the tree could not be confirmed clean; the output schema's enum comes from this list. */
export const CLEANUP_ERRORS = [
  "FINAL_WAIT_EXPIRED",
  "PIPES_HELD_OPEN",
  "SIGNAL_FAILED",
  "JOB_ACTIVE_PROCESSES_REMAIN",
  "TASKKILL_FALLBACK_UNCONFIRMED",
  "WINDOWS_SETUP_UNAVAILABLE",
] as const;
export type CleanupError = (typeof CLEANUP_ERRORS)[number];

/** Which mechanism ended the tree. */
export const TERMINATION_ADAPTERS = [
  "natural",
  "unix-process-group",
  "windows-job-object",
  "windows-taskkill-fallback",
] as const;
export type TerminationAdapter = (typeof TERMINATION_ADAPTERS)[number];

/** The non-null termination reasons. */
export const TERMINATION_REASONS = ["timeout", "cancelled"] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number] | null;

/** How one execution's process tree ended (§4 `termination`). */
export interface TerminationOutcome {
  reason: TerminationReason;
  gracefulRequested: boolean;
  forceUsed: boolean;
  treeCleaned: boolean | null;
  cleanupError?: CleanupError;
  diagnostics: { adapter: TerminationAdapter; [key: string]: unknown };
}

/** How an execution ended (§4): the facts the Canonical Result and the audit log's exec record share. */
export interface ExitFacts {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
}
