// The numbers that bound pattern matching (SPEC §19 `until`, §3.3 `grep`; issue #14).

/**
 * Most work one match call may do, in compiled instructions × bytes. re2js runs in time linear in
 * both, at roughly 10–100 ns per unit once its DFA gives up (more on a loaded machine): 1 Mi units
 * is ~10–100 ms, and every line is matched on at most `MATCH_COST_PER_CALL / programSize` bytes.
 */
export const MATCH_COST_PER_CALL = 1024 * 1024;

/** Largest compiled program accepted; larger ones are INVALID_PATTERN (lines would be tiny). */
export const MAX_PATTERN_PROGRAM_SIZE = 10_000;

/** Longest line prefix ever matched, whatever the pattern (a line is matched on its first bytes). */
export const MAX_MATCHED_LINE_BYTES = 64 * 1024;

/** Longest stretch of matching on the event loop before yielding to timers and I/O. */
export const MATCH_SLICE_MS = 10;

/** Least time a scan gets, also with a zero wait, so that every call makes progress. */
export const MIN_SCAN_MS = 50;
