// The inline budget both excerpts of one result share, and the escaped-length guard that keeps a
// default result whole in every host (SPEC §7).

import {
  DEFAULT_INLINE_BUDGET_BYTES,
  HEAD_FRACTION_DIVISOR,
  MAX_EXCERPT_ESCAPED_CHARS,
} from "../limits.js";
import {
  excerptOf,
  type ExcerptParts,
  type ProjectionLimits,
  type StreamProjection,
} from "./projection.js";
import type { StreamOutput } from "./types.js";
import { alignToLines } from "./line-align.js";
import { ESCAPED_COST, escapedLength, prefixWithinEscaped } from "./escaped-length.js";
import { codePointStart, completeCodePointEnd } from "./utf8.js";

/** The budget settings of one runtime (from the command line, §7). */
export interface InlineBudget {
  /** Effective `--max-output-bytes`: no stream's share exceeds it. */
  maxOutputBytes: number;
  /** `--inline-budget-bytes`, or its default / compatibility value. */
  budgetBytes: number;
  /** `--inline-head-bytes` when given; absent: a quarter of the share. */
  headBytes?: number;
}

const EMPTY = Buffer.alloc(0);

/** One value per stream. */
export interface PerStream<T> {
  stdout: T;
  stderr: T;
}

/**
 * Each stream's share of the budget: a stream whose total is at most half the budget keeps it
 * all and the other gets the rest; otherwise each gets half. A share never exceeds the max.
 */
export function streamShares(totals: PerStream<number>, budget: InlineBudget): PerStream<number> {
  const { budgetBytes, maxOutputBytes } = budget;
  const fitsHalf = (total: number) => total * 2 <= budgetBytes;
  const half = Math.floor(budgetBytes / 2);
  const shareOf = (own: number, other: number) => {
    if (fitsHalf(own)) return own;
    return fitsHalf(other) ? budgetBytes - other : half;
  };
  return {
    stdout: Math.min(shareOf(totals.stdout, totals.stderr), maxOutputBytes),
    stderr: Math.min(shareOf(totals.stderr, totals.stdout), maxOutputBytes),
  };
}

/** The head a stream with this share keeps: the given head (at most the share), else a quarter. */
export function headBytesFor(share: number, budget: InlineBudget): number {
  if (budget.headBytes !== undefined) return Math.min(budget.headBytes, share);
  return Math.floor(share / HEAD_FRACTION_DIVISOR);
}

/** The most bytes one stream can ever show: its share when the other stream is empty. */
export function largestShare(budget: InlineBudget): number {
  return Math.min(budget.budgetBytes, budget.maxOutputBytes);
}

/** Whether results promise the 40,000-character bound (only budgets up to the default, §7). */
export function guardsEscapedLength(budget: InlineBudget): boolean {
  return budget.budgetBytes <= DEFAULT_INLINE_BUDGET_BYTES;
}

/** The longest suffix of `tail` whose escaped length is at most `chars`, from a code point start. */
function keepTailWithin(tail: Buffer, chars: number): Buffer {
  let start = tail.length;
  let sum = 0;
  while (start > 0 && sum + ESCAPED_COST[tail[start - 1]!]! <= chars) {
    start--;
    sum += ESCAPED_COST[tail[start]!]!;
  }
  return tail.subarray(codePointStart(tail, start));
}

/** The longest prefix of `head` whose escaped length is at most `chars`, ending on a code point. */
function keepHeadWithin(head: Buffer, chars: number): Buffer {
  return head.subarray(0, prefixWithinEscaped(head, chars));
}

/** A character allowance split like the byte budget: streamShares with no per-stream maximum. */
function splitAllowance(costs: PerStream<number>, allowance: number): PerStream<number> {
  return streamShares(costs, { budgetBytes: allowance, maxOutputBytes: Number.POSITIVE_INFINITY });
}

/**
 * Shortens the excerpts until together they escape to at most MAX_EXCERPT_ESCAPED_CHARS
 * characters: the tails first (from their start), then the heads (from their end). A whole
 * stream is cut as head + tail like any other.
 */
export function fitEscapedLength(
  parts: PerStream<ExcerptParts>,
  heads: PerStream<number>,
): PerStream<ExcerptParts> {
  const cost = (p: ExcerptParts) => escapedLength(p.head) + escapedLength(p.tail);
  if (cost(parts.stdout) + cost(parts.stderr) <= MAX_EXCERPT_ESCAPED_CHARS) return parts;
  const split = {
    stdout: splitWhole(parts.stdout, heads.stdout),
    stderr: splitWhole(parts.stderr, heads.stderr),
  };
  const headCosts = {
    stdout: escapedLength(split.stdout.head),
    stderr: escapedLength(split.stderr.head),
  };
  const tailAllowance = MAX_EXCERPT_ESCAPED_CHARS - headCosts.stdout - headCosts.stderr;
  if (tailAllowance >= 0) {
    const tailCosts = {
      stdout: escapedLength(split.stdout.tail),
      stderr: escapedLength(split.stderr.tail),
    };
    const allowed = splitAllowance(tailCosts, tailAllowance);
    return {
      stdout: { ...split.stdout, tail: keepTailWithin(split.stdout.tail, allowed.stdout) },
      stderr: { ...split.stderr, tail: keepTailWithin(split.stderr.tail, allowed.stderr) },
    };
  }
  const allowed = splitAllowance(headCosts, MAX_EXCERPT_ESCAPED_CHARS);
  return {
    stdout: { whole: false, head: keepHeadWithin(split.stdout.head, allowed.stdout), tail: EMPTY },
    stderr: { whole: false, head: keepHeadWithin(split.stderr.head, allowed.stderr), tail: EMPTY },
  };
}

/** A whole stream as head (its first `head` bytes, on a code point) + tail (the rest). */
function splitWhole(parts: ExcerptParts, head: number): ExcerptParts {
  if (!parts.whole) return parts;
  const end = completeCodePointEnd(parts.head, Math.min(head, parts.head.length));
  return { whole: false, head: parts.head.subarray(0, end), tail: parts.head.subarray(end) };
}

/** The heads both streams get for their shares. */
export function headsFor(shares: PerStream<number>, budget: InlineBudget): PerStream<number> {
  return {
    stdout: headBytesFor(shares.stdout, budget),
    stderr: headBytesFor(shares.stderr, budget),
  };
}

/**
 * The last steps every projection takes (§7): the escaped-length guard when the budget promises
 * it, then line alignment (which only shortens, so it comes last).
 */
export function finishParts(
  parts: PerStream<ExcerptParts>,
  heads: PerStream<number>,
  budget: InlineBudget,
): PerStream<ExcerptParts> {
  const fitted = guardsEscapedLength(budget) ? fitEscapedLength(parts, heads) : parts;
  return { stdout: alignToLines(fitted.stdout), stderr: alignToLines(fitted.stderr) };
}

/**
 * Both excerpts of one result (§7): shares of the budget from the totals so far, head and tail
 * per share, then the escaped-length guard and line alignment.
 */
export function projectStreams(
  projections: PerStream<StreamProjection>,
  budget: InlineBudget,
  final: boolean,
): PerStream<StreamOutput> {
  const shares = streamShares(
    { stdout: projections.stdout.totalBytes, stderr: projections.stderr.totalBytes },
    budget,
  );
  const heads = headsFor(shares, budget);
  const parts = finishParts(
    {
      stdout: projections.stdout.parts(shares.stdout, heads.stdout),
      stderr: projections.stderr.parts(shares.stderr, heads.stderr),
    },
    heads,
    budget,
  );
  return {
    stdout: excerptOf(parts.stdout, projections.stdout, final),
    stderr: excerptOf(parts.stderr, projections.stderr, final),
  };
}

/** What each stream must keep in memory so that any share it may get can be shown. */
export function projectionCapacity(budget: InlineBudget): ProjectionLimits {
  const largest = largestShare(budget);
  return { maxOutputBytes: largest, headBytes: headBytesFor(largest, budget) };
}
