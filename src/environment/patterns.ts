// Name patterns of environment hygiene (SPEC §23): `*` is any run of characters, everything else
// is literal, and matching ignores case on every platform. The matching itself is the shared glob
// matcher (src/glob.ts, no regular expressions); this file adds the case folding.

import { globMatches } from "../glob.js";

/** Whether `name` matches the glob `pattern`, case-insensitively. */
export function matchesNamePattern(name: string, pattern: string): boolean {
  return globMatches(pattern.toUpperCase(), name.toUpperCase());
}

/** Whether `name` matches any of the patterns. */
export function matchesAnyPattern(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesNamePattern(name, pattern));
}
