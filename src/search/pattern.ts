// A compiled RE2 pattern whose every match call is bounded in cost (issue #14): the line it is
// given is cut so that program size × bytes stays within MATCH_COST_PER_CALL.

import type { RE2JS } from "re2js";
import { CommandError, clipText } from "../errors.js";
import { MAX_PATTERN_CHARS } from "../limits.js";
import {
  MATCH_COST_PER_CALL,
  MAX_MATCHED_LINE_BYTES,
  MAX_PATTERN_PROGRAM_SIZE,
} from "./constants.js";

export interface BoundedPattern {
  /** Bytes of a line the matcher looks at (its first bytes; the rest is never matched). */
  readonly maxLineBytes: number;
  /** Whether the line (already cut to maxLineBytes, without its newline) matches. */
  test(line: Buffer): boolean;
}

/** Compiles `pattern` (RE2 syntax, ≤ 256 chars, bounded program size) or throws INVALID_PATTERN. */
export async function compileBoundedPattern(
  pattern: string,
  field: string,
  options: { ignoreCase?: boolean } = {},
): Promise<BoundedPattern> {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new CommandError(
      "INVALID_PATTERN",
      `${field} may have at most ${MAX_PATTERN_CHARS} characters, got ${pattern.length}`,
    );
  }
  const { RE2JS: Engine } = await import("re2js"); // loaded on the first pattern, not at startup
  let compiled: RE2JS;
  try {
    compiled = Engine.compile(pattern, options.ignoreCase ? Engine.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new CommandError(
      "INVALID_PATTERN",
      `${field} is not valid RE2 syntax: ${clipText((error as Error).message)}`,
    );
  }
  const size = compiled.programSize();
  if (size > MAX_PATTERN_PROGRAM_SIZE) {
    throw new CommandError(
      "INVALID_PATTERN",
      `${field} compiles to ${size} instructions, at most ${MAX_PATTERN_PROGRAM_SIZE} are ` +
        `allowed; use fewer or smaller repetitions`,
    );
  }
  const maxLineBytes = Math.min(MAX_MATCHED_LINE_BYTES, Math.floor(MATCH_COST_PER_CALL / size));
  return {
    maxLineBytes,
    test: (line) => compiled.test(line.subarray(0, maxLineBytes).toString("utf8")),
  };
}
