// Running snapshots that carry only what is new (SPEC §19 Revision 3): the §7 projection computed
// on a range of each stream — from a cursor to the bytes so far — instead of the whole stream.

import { excerptOf, type ExcerptParts } from "./projection.js";
import {
  finishParts,
  headsFor,
  streamShares,
  type InlineBudget,
  type PerStream,
} from "./inline-budget.js";
import type { StreamOutput } from "./types.js";
import { codePointStart, completeCodePointEnd } from "./utf8.js";

const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;

/** Where a snapshot reads one stream's bytes from (memory first, else the spool). */
export interface RangeBytes {
  /** The bytes [position, position + size), or undefined when they cannot be read any more. */
  read(position: number, size: number): Promise<Buffer | undefined>;
  lossy(final: boolean): boolean;
}

/** One stream's range: from `start` to `end` (the bytes so far when the snapshot began). */
export interface StreamRange {
  start: number;
  end: number;
  source: RangeBytes;
}

/** The excerpts of a snapshot, and where each range really ended (the next cursor). */
export interface RangeSnapshot {
  excerpts: PerStream<StreamOutput>;
  ends: PerStream<number>;
}

interface RangeParts {
  parts: ExcerptParts;
  /** Bytes of the range after its end was settled (a partial last line waits). */
  length: number;
}

/**
 * A range that fits its share is shown whole, ended after its last complete line when it holds
 * one (a partial last line waits for the next snapshot) and otherwise on a code point. A range
 * larger than its share is cut into head + tail like a whole stream, its end on a code point.
 * Bytes that can no longer be read (no spool) count as omitted.
 */
async function rangeParts(range: StreamRange, share: number, head: number): Promise<RangeParts> {
  const length = range.end - range.start;
  if (length <= share) {
    const bytes = await range.source.read(range.start, length);
    if (!bytes) return { parts: { whole: false, head: EMPTY, tail: EMPTY }, length };
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    const end = lastNewline !== -1 ? lastNewline + 1 : completeCodePointEnd(bytes);
    return { parts: { whole: true, head: bytes.subarray(0, end), tail: EMPTY }, length: end };
  }
  const headBytes = (await range.source.read(range.start, head)) ?? EMPTY;
  const tailSize = share - head;
  const tailBytes = (await range.source.read(range.end - tailSize, tailSize)) ?? EMPTY;
  const tailEnd = completeCodePointEnd(tailBytes);
  const tail = tailBytes.subarray(0, tailEnd);
  return {
    parts: {
      whole: false,
      head: headBytes.subarray(0, completeCodePointEnd(headBytes)),
      tail: tail.subarray(codePointStart(tail)),
    },
    length: length - (tailBytes.length - tailEnd),
  };
}

/**
 * Both excerpts of a running snapshot (§19 Revision 3, §7): shares of the budget from the range
 * lengths, head and tail per share, the escaped-length guard, line alignment; `sinceOffset` says
 * where each range starts and `totalBytes` stays the absolute count so far.
 */
export async function projectRanges(
  ranges: PerStream<StreamRange>,
  budget: InlineBudget,
): Promise<RangeSnapshot> {
  const shares = streamShares(
    {
      stdout: ranges.stdout.end - ranges.stdout.start,
      stderr: ranges.stderr.end - ranges.stderr.start,
    },
    budget,
  );
  const heads = headsFor(shares, budget);
  const stdout = await rangeParts(ranges.stdout, shares.stdout, heads.stdout);
  const stderr = await rangeParts(ranges.stderr, shares.stderr, heads.stderr);
  const parts = finishParts({ stdout: stdout.parts, stderr: stderr.parts }, heads, budget);
  const excerpt = (range: StreamRange, p: ExcerptParts, length: number) =>
    excerptOf(p, { totalBytes: range.end, lossy: (f) => range.source.lossy(f) }, false, {
      start: range.start,
      length,
      since: true,
    });
  return {
    excerpts: {
      stdout: excerpt(ranges.stdout, parts.stdout, stdout.length),
      stderr: excerpt(ranges.stderr, parts.stderr, stderr.length),
    },
    ends: {
      stdout: ranges.stdout.start + stdout.length,
      stderr: ranges.stderr.start + stderr.length,
    },
  };
}
