// Line patterns for `grep` (SPEC §3.3): the cost-bounded RE2 matcher of pattern.ts, and a literal
// every match must contain — so that a scan can jump between the lines that hold it.

import { compileBlockPattern, type BlockPattern } from "./block-pattern.js";
import { compileBoundedPattern, type BoundedPattern } from "./pattern.js";

/** A compiled line pattern. */
export interface LinePattern {
  /** The cost-bounded matcher (it looks at a line's first `maxLineBytes`). */
  bounded: BoundedPattern;
  /** UTF-8 bytes every matching line contains, when the pattern proves one (≥ 3 bytes). */
  literal?: Buffer;
  /** A prefilter over blocks of whole lines, for patterns without a literal (block-pattern.ts). */
  block?: BlockPattern;
}

/** The shortest literal worth a prefilter (shorter ones occur on most lines anyway). */
const MIN_LITERAL_BYTES = 3;

/** Compiles `pattern` (RE2 syntax, bounded) or throws INVALID_PATTERN naming `field`. */
export async function compileLinePattern(
  pattern: string,
  ignoreCase: boolean,
  field: string,
): Promise<LinePattern> {
  const bounded = await compileBoundedPattern(pattern, field, { ignoreCase });
  const literal = requiredLiteral(pattern);
  const usable =
    literal !== undefined &&
    Buffer.byteLength(literal) >= MIN_LITERAL_BYTES &&
    !literal.includes("\ufffd") &&
    (!ignoreCase || literal.toLowerCase() === literal.toUpperCase());
  if (usable) return { bounded, literal: Buffer.from(literal) };
  const block = await compileBlockPattern(pattern, ignoreCase, bounded.maxLineBytes);
  return block ? { bounded, block } : { bounded };
}

/** Whether one line (without its newline and trailing CR) matches: the one match call. */
export function lineMatches(pattern: LinePattern, line: Buffer): boolean {
  return pattern.bounded.test(line.subarray(0, pattern.bounded.maxLineBytes));
}

const QUANTIFIERS = new Set(["*", "?", "+", "{"]);
const BREAKS = new Set([".", "^", "$"]);
/** Escapes of a character class or an assertion: they end a literal run. */
const CLASS_ESCAPES = new Set([..."dDwWsSbB"]);

/**
 * The longest run of plain characters the pattern requires in every match, or undefined when it
 * cannot prove one. Conservative: any alternation, group, flag or unusual escape gives none.
 */
export function requiredLiteral(source: string): string | undefined {
  // Flags for the rest of the pattern ((?i) …) change what a literal means: no prefilter.
  if (/\(\?[A-Za-z-]+\)/.test(source)) return undefined;
  const pattern = withoutGroups(source);
  if (pattern === undefined || /[|()]/.test(pattern.replace(/\\./g, ""))) return undefined;
  const runs: string[] = [];
  let run = "";
  const end = () => {
    if (run) runs.push(run);
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (QUANTIFIERS.has(ch)) {
      // The atom before a quantifier: optional for * ? {, required once for +.
      if (ch !== "+") run = run.slice(0, -1);
      end();
      if (ch === "{") {
        const close = pattern.indexOf("}", i);
        if (close < 0) return undefined;
        i = close;
      }
      if (pattern[i + 1] === "?") i++; // lazy
      continue;
    }
    if (ch === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      if (/[A-Za-z0-9]/.test(next)) {
        if (!CLASS_ESCAPES.has(next)) return undefined;
        end();
      } else {
        run += next;
      }
      i++;
      continue;
    }
    if (ch === "[") {
      const close = classEnd(pattern, i);
      if (close < 0) return undefined;
      end();
      i = close;
      continue;
    }
    if (BREAKS.has(ch)) {
      end();
      continue;
    }
    run += ch;
  }
  end();
  // A quantifier after an escaped or plain character was handled above; take the longest run.
  return runs.sort((a, b) => b.length - a.length)[0];
}

/**
 * The pattern with every group replaced by `.` (an atom that ends a literal run; a quantifier
 * after it then applies to nothing required), or undefined when the parentheses do not balance.
 */
function withoutGroups(pattern: string): string | undefined {
  let out = "";
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      if (depth === 0) out += pattern.slice(i, i + 2);
      i++;
    } else if (ch === "[") {
      const close = classEnd(pattern, i);
      if (close < 0) return undefined;
      if (depth === 0) out += pattern.slice(i, close + 1);
      i = close;
    } else if (ch === "(") {
      if (depth === 0) out += ".";
      depth++;
    } else if (ch === ")") {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0) {
      out += ch;
    }
  }
  return depth === 0 ? out : undefined;
}

/** The index of the `]` closing the class opened at `open`, or -1. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") i++;
    else if (ch === "[" && pattern[i + 1] === ":") {
      const close = pattern.indexOf(":]", i + 2);
      if (close < 0) return -1;
      i = close + 1;
    } else if (ch === "]") return i;
  }
  return -1;
}
