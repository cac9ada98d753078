// Every number of the contract (SPEC §3, §6, §7, §8, §19), in one place.
// system_environment.limits reports values derived from these constants.

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

// Execution (§3.1, §6)
export const DEFAULT_TIMEOUT_MS = 600_000;
export const MAX_FOREGROUND_TIMEOUT_MS = 600_000;
export const DEFAULT_GRACE_PERIOD_MS = 2_000;
export const DEFAULT_FINAL_TERMINATION_WAIT_MS = 5_000;
export const PIPES_HELD_OPEN_WAIT_MS = 1_000;
export const SHUTDOWN_KILL_AFTER_MS = 1_000;
export const SHUTDOWN_DEADLINE_MS = 2_000;
export const DEFAULT_MAX_CONCURRENT_EXECUTIONS = 4;
export const MAX_CONCURRENT_EXECUTIONS_LIMIT = 1_024;
export const PROGRESS_INTERVAL_MS = 1_000;
export const MAX_GRACE_PERIOD_REQUEST_MS = 50_000;

// Arguments and input (§3.1)
export const MAX_ARGS = 4_096;
export const MAX_ARG_BYTES = 64 * KiB;
export const MAX_ARGS_TOTAL_BYTES = 256 * KiB;
export const MAX_INPUT_BYTES = 1 * MiB;

// Inline output (§7)
export const DEFAULT_MAX_OUTPUT_BYTES = 32 * KiB;
export const MAX_OUTPUT_BYTES_ACCEPTED = 8 * MiB;
export const MAX_OUTPUT_BYTES_EFFECTIVE = 256 * KiB;
export const HEAD_FRACTION_DIVISOR = 4;
export const DEFAULT_INLINE_BUDGET_BYTES = 24 * KiB;
export const MAX_INLINE_BUDGET_BYTES = 512 * KiB;
/** With the default budget both excerpts together escape to at most this many characters. */
export const MAX_EXCERPT_ESCAPED_CHARS = 30_000;
/** Revision 3: a head ends at a newline in its final 1/N, a tail starts after one in its first 1/N. */
export const LINE_ALIGN_FRACTION_DIVISOR = 4;
/** How long a running snapshot waits for spooled bytes it needs to reach the spool file (§19). */
export const SNAPSHOT_SPOOL_WAIT_MS = 2_000;

// Artifacts (§8, §3.3)
export const DEFAULT_ARTIFACT_RETENTION_MS = 86_400_000;
export const MAX_ARTIFACT_RETENTION_MS = 86_400_000;
export const DEFAULT_ARTIFACT_QUOTA_BYTES = 1 * GiB;
export const MAX_ARTIFACT_QUOTA_BYTES = 1 * GiB;
export const DEFAULT_ARTIFACT_MAX_STREAM_BYTES = 100 * MiB;
export const MAX_ARTIFACT_MAX_STREAM_BYTES = 100 * MiB;
export const ARTIFACT_LOCK_TIMEOUT_MS = 500;
export const DEFAULT_OUTPUT_PAGE_BYTES = 24 * KiB;
export const OUTPUT_PAGE_MAX_BASE64_BYTES = 1 * MiB;
export const OUTPUT_PAGE_MAX_UTF8_BYTES = 512 * KiB;
/** A utf8 page ends early so that its JSON-escaped text stays under this many characters. */
export const MAX_UTF8_PAGE_ESCAPED_CHARS = 30_000;

// Long-running work (§19)
export const DEFAULT_YIELD_MS = 45_000;
export const MAX_YIELD_MS = 600_000;
export const DEFAULT_MAX_BACKGROUND_EXECUTIONS = 4;
export const MAX_BACKGROUND_EXECUTIONS_LIMIT = 64;
export const DEFAULT_BACKGROUND_TIMEOUT_MS = 3_600_000;
export const DEFAULT_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 50_000;
export const HANDLE_RETENTION_MS = 600_000;
export const HANDLE_RETENTION_COUNT = 64;
export const MAX_PATTERN_CHARS = 256;
export const MAX_MATCH_TEXT_BYTES = 1 * KiB;
// grep search mode (§3.3)
export const GREP_SCAN_MAX_BYTES = 64 * MiB;
export const GREP_SCAN_MAX_MS = 2_000;
export const GREP_SLICE_BYTES = 1 * MiB;
export const GREP_DEFAULT_MAX_MATCHES = 50;
export const GREP_MAX_MATCHES = 1_000;
export const CANCEL_RETURN_WITHIN_MS = 50_000;

// Results (§3)
/** Gemini CLI's scheduling hint: accepted (boolean) and ignored on every tool, never declared. */
export const IGNORED_HOST_ARGUMENT = "wait_for_previous";
export const MAX_RESULT_SIZE_CHARS = 2_000_000;

export const BYTE_UNITS = { KiB, MiB, GiB } as const;
