// What a program grammar tells the rules (SPEC §21.1): the argument vectors the program will act
// on, or that the call cannot be read exactly and is decided by the strictest rule.

/** Why a call is decided by the strictest rule, and which rules count. */
export interface StrictestDecision {
  /** Absent: every rule of the program; a word: only the rules that name it (e.g. "push"). */
  naming?: string;
  /** What made the call unreadable, for the error message. */
  why: string;
}

/**
 * The canonical reading of one call. `readings` are the argument vectors the rules are matched
 * against (the canonical argv first; an ambiguous spelling or an inner command adds more); the
 * strongest verdict over all of them, and over `strictest` when present, decides.
 */
export interface CanonicalCall {
  readings: string[][];
  strictest?: StrictestDecision;
}

/** One program's grammar: literal args in, canonical readings out. */
export interface Grammar {
  /** The program this grammar reads (git, npm, npx, pnpm, yarn). */
  readonly name: string;
  canonical(args: readonly string[]): CanonicalCall;
}

/** At most this many readings of one call; more means it is too ambiguous to rule exactly. */
export const MAX_READINGS = 16;
