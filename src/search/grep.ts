// `grep` search mode of system_output (SPEC §3.3): a line-by-line scan of one stream from an
// offset, bounded per call (64 MiB or 2 s), read in slices; matching is paced (MatchPacer) so
// that the event loop is never held for long.

import { setImmediate as nextTurn } from "node:timers/promises";
import {
  GREP_SCAN_MAX_BYTES,
  GREP_SCAN_MAX_MS,
  GREP_SLICE_BYTES,
  MAX_MATCH_TEXT_BYTES,
} from "../limits.js";
import { lineMatches, type LinePattern } from "./line-pattern.js";
import { resolveOffset } from "../output/page.js";
import type { StreamReader } from "../output/types.js";
import { completeCodePointEnd } from "../output/utf8.js";
import { MatchPacer } from "./pacer.js";

const NEWLINE = 0x0a;
const CR = 0x0d;
/** indexOf's answer when no such byte is left. */
const NONE_LEFT = -1;
const NOT_SEARCHED = -2;

/** The bytes of one stream known so far: a reader without `close`, named for the line cache. */
export interface StreamSource extends Pick<StreamReader, "length" | "final" | "read"> {
  /** Identifies the stream for the line-number cache (artifact or execution id + stream). */
  key: string;
}

export interface GrepMatch {
  offset: number;
  line: number;
  text: string;
}

/** A search result (§3.3 search mode). */
export interface GrepPage {
  offset: number;
  bytes: number;
  nextOffset: number;
  eof: boolean;
  encoding: "utf8";
  matches: GrepMatch[];
  truncated: boolean;
  scanLimited: boolean;
}

/** Limits of one call; the defaults are the contract's, tests may lower them. */
export interface ScanBudget {
  maxBytes: number;
  maxMs: number;
}

const DEFAULT_BUDGET: ScanBudget = { maxBytes: GREP_SCAN_MAX_BYTES, maxMs: GREP_SCAN_MAX_MS };

/** Lines before an offset, remembered where scans stopped, so a continued scan need not recount. */
const lineCounts = new Map<string, number>();
const LINE_COUNT_ENTRIES = 256;

function rememberLines(key: string, offset: number, lines: number): void {
  if (lineCounts.size >= LINE_COUNT_ENTRIES) lineCounts.delete(lineCounts.keys().next().value!);
  lineCounts.set(`${key}@${offset}`, lines);
}

/** Scans `source` from `offset` (negative: from the end) for lines matching `pattern`. */
export async function grepStream(
  source: StreamSource,
  offset: number,
  pattern: LinePattern,
  maxMatches: number,
  budget: ScanBudget = DEFAULT_BUDGET,
): Promise<GrepPage> {
  const started = Date.now();
  const start = resolveOffset(offset, source.length);
  const scan = new LineScan(source, pattern, maxMatches, new MatchPacer(started + budget.maxMs));
  await scan.seek(start);
  const stop = await scan.run(started, budget);
  const nextOffset = scan.position;
  rememberLines(source.key, nextOffset, scan.linesBefore);
  return {
    offset: start,
    bytes: nextOffset - start,
    nextOffset,
    eof: source.final && nextOffset === source.length,
    encoding: "utf8",
    matches: scan.matches,
    truncated: stop === "matches",
    scanLimited: stop === "budget",
  };
}

type Stop = "end" | "matches" | "budget";

/** One scan: where it is (a line start), how many lines lie before it, and what matched. */
class LineScan {
  /** The start of the next line to look at. */
  position = 0;
  /** Newlines before `position` (its 1-based line number minus one). */
  linesBefore = 0;
  readonly matches: GrepMatch[] = [];
  /** The start is inside a line whose end is not written yet: nothing to scan this time. */
  private stalled = false;

  constructor(
    private readonly source: StreamSource,
    private readonly pattern: LinePattern,
    private readonly maxMatches: number,
    private readonly pacer: MatchPacer,
  ) {}

  /** Moves to the first line start at or after `start`, counting the lines before it. */
  async seek(start: number): Promise<void> {
    const known = lineCounts.get(`${this.source.key}@${start}`);
    if (known !== undefined) {
      this.position = start;
      this.linesBefore = known;
      return;
    }
    let lines = 0;
    let at = 0;
    while (at < start) {
      const slice = await this.source.read(at, Math.min(GREP_SLICE_BYTES, start - at));
      lines += countNewlines(slice, 0, slice.length);
      at += slice.length;
      await nextTurn();
    }
    this.position = start;
    this.linesBefore = lines;
    if (start === 0 || start >= this.source.length) return;
    const before = await this.source.read(start - 1, 1);
    if (before[0] === NEWLINE) return;
    // Inside a line: the scan starts at the next line (none yet while the line is being written).
    const next = await this.findNewline(start);
    if (next >= 0) {
      this.position = next + 1;
      this.linesBefore += 1;
    } else if (this.source.final) {
      this.position = this.source.length;
    } else {
      this.stalled = true;
    }
  }

  /** Scans slice by slice until the end, maxMatches, or the budget. */
  async run(started: number, budget: ScanBudget): Promise<Stop> {
    const from = this.position;
    if (this.stalled) return "end";
    for (;;) {
      if (this.position >= this.source.length) return "end";
      if (this.position - from >= budget.maxBytes || Date.now() - started >= budget.maxMs) {
        return "budget";
      }
      const size = Math.min(GREP_SLICE_BYTES, this.source.length - this.position);
      const slice = await this.source.read(this.position, size);
      const atEnd = this.position + slice.length >= this.source.length;
      const consumed = await this.scanSlice(slice, atEnd && this.source.final);
      if (this.matches.length >= this.maxMatches) return "matches";
      if (this.pacer.expired) return "budget";
      if (consumed === 0) {
        // One line longer than a slice: match its first bytes, then skip to its end.
        if (!(await this.longLine(slice, atEnd))) return "end";
      }
      await nextTurn(); // never hold the event loop for more than one slice
    }
  }

  /**
   * Looks at every complete line of `slice` (which starts at `position`); the last, unterminated
   * line counts only at the stream's final end. Returns how many bytes it consumed.
   */
  private async scanSlice(slice: Buffer, finalEnd: boolean): Promise<number> {
    const base = this.position;
    const literal = this.pattern.literal;
    let lineStart = 0; // the next line to look at; every newline before it is counted
    let lineByLineUntil = 0; // a block that may hold a match is matched line by line up to here
    let cr = NOT_SEARCHED; // the next CR at or after lineStart (searched once per CR, not once per block)
    while (lineStart < slice.length) {
      if (this.pattern.block && lineStart >= lineByLineUntil) {
        const end = blockEnd(slice, lineStart, finalEnd, this.pattern.block.maxBytes);
        if (end > lineStart) {
          if (cr !== NONE_LEFT && cr < lineStart) cr = slice.indexOf(CR, lineStart);
          const crInBlock = cr >= 0 && cr < end; // the line matcher strips a trailing CR
          if (!crInBlock && !this.pattern.block.test(slice.toString("utf8", lineStart, end))) {
            this.linesBefore += countNewlines(slice, lineStart, end);
            lineStart = end;
            if (!(await this.pacer.pace())) break;
            continue;
          }
          lineByLineUntil = end;
        }
      }
      let candidate = lineStart;
      if (literal) {
        // Jump straight to the next line that contains the literal.
        const hit = slice.indexOf(literal, lineStart);
        if (hit < 0) {
          const end = finalEnd ? slice.length : slice.lastIndexOf(NEWLINE) + 1;
          if (end > lineStart) {
            this.linesBefore += countNewlines(slice, lineStart, end);
            lineStart = end;
          }
          break;
        }
        candidate = lineStartOf(slice, hit, lineStart);
        this.linesBefore += countNewlines(slice, lineStart, candidate);
        lineStart = candidate;
      }
      const newline = slice.indexOf(NEWLINE, candidate);
      if (newline < 0 && !finalEnd) break;
      const lineEnd = newline < 0 ? slice.length : newline;
      this.test(slice.subarray(candidate, lineEnd), base + candidate);
      if (newline >= 0) this.linesBefore += 1;
      lineStart = newline < 0 ? slice.length : newline + 1;
      if (this.matches.length >= this.maxMatches) break;
      if (!(await this.pacer.pace())) break; // the 2 s budget: stop after this line
    }
    this.position = base + lineStart;
    return lineStart;
  }

  /** A line longer than one slice: its first bytes are matched, the rest skipped. */
  private async longLine(slice: Buffer, atEnd: boolean): Promise<boolean> {
    if (atEnd) return false; // its end is not written yet (a final end would have consumed it)
    const newline = await this.findNewline(this.position + slice.length);
    if (newline < 0 && !this.source.final) return false;
    this.test(slice, this.position);
    this.position = newline < 0 ? this.source.length : newline + 1;
    if (newline >= 0) this.linesBefore += 1;
    return true;
  }

  private test(line: Buffer, offset: number): void {
    let bytes = line.subarray(0, this.pattern.bounded.maxLineBytes + 1);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, -1);
    if (!lineMatches(this.pattern, bytes)) return;
    const end = completeCodePointEnd(bytes, Math.min(bytes.length, MAX_MATCH_TEXT_BYTES));
    const text = bytes.subarray(0, end).toString("utf8");
    this.matches.push({ offset, line: this.linesBefore + 1, text });
  }

  /** The index of the first newline at or after `from` in the stream, or -1. */
  private async findNewline(from: number): Promise<number> {
    let at = from;
    while (at < this.source.length) {
      const slice = await this.source.read(at, Math.min(GREP_SLICE_BYTES, this.source.length - at));
      const index = slice.indexOf(NEWLINE);
      if (index >= 0) return at + index;
      at += slice.length;
      await nextTurn();
    }
    return -1;
  }
}

/**
 * The end of the block of whole lines from `from` (one past its last newline, or the slice's end
 * at the stream's final end) no longer than `maxBytes`; `from` when not even one line fits.
 */
function blockEnd(slice: Buffer, from: number, finalEnd: boolean, maxBytes: number): number {
  const limit = from + maxBytes;
  if (finalEnd && slice.length <= limit) return slice.length;
  const newline = slice.lastIndexOf(NEWLINE, Math.min(slice.length, limit) - 1);
  return newline < from ? from : newline + 1;
}

/** The start of the line holding index `at` (not before `floor`). */
function lineStartOf(slice: Buffer, at: number, floor: number): number {
  const newline = at === 0 ? -1 : slice.lastIndexOf(NEWLINE, at - 1);
  return Math.max(floor, newline + 1);
}

/** Newlines in slice[from, to). */
function countNewlines(slice: Buffer, from: number, to: number): number {
  let count = 0;
  let at = slice.indexOf(NEWLINE, from);
  while (at >= 0 && at < to) {
    count++;
    at = slice.indexOf(NEWLINE, at + 1);
  }
  return count;
}
