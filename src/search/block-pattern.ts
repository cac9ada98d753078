// A prefilter for `grep` patterns that prove no literal (SPEC §3.3, §16: ≥ 50 MiB/s): one RE2 test
// over a block of whole lines instead of one per line. re2js's DFA runs a boolean test over a block
// several times faster than it tests the block's lines one by one (each call has a fixed cost of
// the order of microseconds). A block that does not match holds no matching line; one that does is
// then matched line by line with the exact line matcher, so results never depend on the prefilter.
//
// Why "the block does not match" proves "no line of it matches": the block is the lines joined by
// their "\n", compiled in multi-line mode, so `^` and `$` hold at every line start and end just as
// they do at the ends of one line, and `\b`/`\B` see "\n" (not a word character) where a line alone
// sees its edge. A match inside a line alone is therefore also a match inside the block. This needs:
//   - no `\A` or `\z` (they would only hold at the block's ends) and no `(?…)` group other than
//     `(?:` (a flag group could turn multi-line mode off; lookarounds look across lines) —
//     such patterns get no prefilter;
//   - no CR in the block (a line's trailing CR is stripped before matching, so `$` would differ) and
//     no line cut short (a block is at most as long as the bytes one line is matched on) — the
//     scan checks both per block and goes line by line otherwise.
// The block is decoded as a whole: "\n" is ASCII, so it decodes to the same text as its lines.

import type { RE2JS } from "re2js";
import { MATCH_COST_PER_CALL, MAX_MATCHED_LINE_BYTES } from "./constants.js";

/** The prefilter: a boolean multi-line test over a block of at most `maxBytes` whole lines. */
export interface BlockPattern {
  /** Largest block tested at once (the cost bound of one match call, as for one line). */
  readonly maxBytes: number;
  /** False only when no line of `text` (lines joined by "\n") can match the line pattern. */
  test(text: string): boolean;
}

/** Anchors and groups whose meaning in a block differs from their meaning in one line. */
const UNSAFE_IN_BLOCK = [/\\[Az]/, /\(\?(?!:)/];

/**
 * The prefilter of `pattern` (already known to compile), or undefined when it could be wrong.
 * Its blocks are never longer than `maxLineBytes`, the bytes one line is matched on.
 */
export async function compileBlockPattern(
  pattern: string,
  ignoreCase: boolean,
  maxLineBytes: number,
): Promise<BlockPattern | undefined> {
  if (UNSAFE_IN_BLOCK.some((unsafe) => unsafe.test(pattern))) return undefined;
  const { RE2JS: Engine } = await import("re2js");
  let compiled: RE2JS;
  try {
    compiled = Engine.compile(
      pattern,
      Engine.MULTILINE | (ignoreCase ? Engine.CASE_INSENSITIVE : 0),
    );
  } catch {
    return undefined;
  }
  const maxBytes = Math.min(
    maxLineBytes,
    MAX_MATCHED_LINE_BYTES,
    Math.floor(MATCH_COST_PER_CALL / compiled.programSize()),
  );
  return { maxBytes, test: (text) => compiled.test(text) };
}
