// The one UTF-8 module (SPEC §7, §3.3): code point boundaries for excerpts and pages, streaming
// validity. Page boundaries fall where a whole-stream decoder would be between characters, so
// the texts of consecutive pages concatenate to the text of the whole stream.

import { isUtf8 } from "node:buffer";

const CONTINUATION_MASK = 0b1100_0000;
const CONTINUATION_BITS = 0b1000_0000;
const MAX_SEQUENCE_BYTES = 4;

/** True for a byte of the form 10xxxxxx. */
export function isContinuationByte(byte: number): boolean {
  return (byte & CONTINUATION_MASK) === CONTINUATION_BITS;
}

/** The length a lead byte announces (1 for ASCII and for bytes that cannot start a sequence). */
export function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  return 1;
}

/**
 * The largest n ≤ end such that buf[0, n) does not end inside a multi-byte sequence whose lead
 * byte is within the last three bytes. Invalid bytes are left alone (they decode to U+FFFD).
 */
export function completeCodePointEnd(buf: Uint8Array, end: number = buf.length): number {
  const lowest = Math.max(0, end - (MAX_SEQUENCE_BYTES - 1));
  for (let i = end - 1; i >= lowest; i--) {
    const byte = buf[i]!;
    if (!isContinuationByte(byte)) {
      const length = sequenceLength(byte);
      return i + length > end && length > 1 ? i : end;
    }
  }
  return end;
}

/** The first index ≥ start that is not a continuation byte (at most three skipped). */
export function codePointStart(buf: Uint8Array, start = 0): number {
  let i = start;
  while (i < buf.length && i - start < MAX_SEQUENCE_BYTES - 1 && isContinuationByte(buf[i]!)) {
    i++;
  }
  return i;
}

/** How many bytes a UTF-8 decoder may need to look past the limit to place a boundary. */
export const UTF8_LOOKAHEAD_BYTES = MAX_SEQUENCE_BYTES - 1;

/**
 * Where a utf8 page should end. `window` holds the page's `want` bytes followed by up to
 * UTF8_LOOKAHEAD_BYTES more (fewer only where the bytes known so far end). `final` says whether
 * the window's end is the stream's final end; when it is not (a live spool still being written), a
 * character cut by the end of the known bytes is left for later, which may give an empty page.
 * Otherwise the result is ≥ 1; it exceeds `want` only when the first code point (or the first
 * invalid sequence) is longer than `want`.
 */
export function utf8PageEnd(window: Uint8Array, want: number, final: boolean): number {
  if (want >= window.length && final) return window.length;
  const start = lastSequenceStart(window, want);
  const length = sequenceLength(window[start]!);
  if (length <= 1 || start + length <= want) return want;
  const valid = validPrefixLength(window, start, length);
  // Already invalid inside the page: the decoder resynchronises before `want`.
  if (valid < want - start) return want;
  // A valid prefix reaching the end of the bytes written so far: wait for the rest.
  const waitsForMore = !final && valid < length && start + valid === window.length;
  if (waitsForMore) return start;
  // A character (or the invalid prefix of one) starts before `want` and ends after it.
  return start > 0 ? start : valid;
}

/**
 * The first decoder boundary at or after `at` (a page that starts after a negative offset): past
 * the rest of a character that began before `at`; `at` itself when it already is a boundary.
 * `window` must hold the three bytes before `at` (where there are any) and three after.
 */
export function nextCodePointBoundary(window: Uint8Array, at: number): number {
  if (at === 0 || at >= window.length) return at;
  const start = lastSequenceStart(window, at);
  const length = sequenceLength(window[start]!);
  if (length <= 1 || start + length <= at) return at;
  const end = start + validPrefixLength(window, start, length);
  return end > at ? end : at;
}

/** The start of the sequence holding byte want-1: back over at most three continuation bytes. */
function lastSequenceStart(window: Uint8Array, want: number): number {
  let position = want - 1;
  let steps = 0;
  while (position > 0 && steps < MAX_SEQUENCE_BYTES - 1 && isContinuationByte(window[position]!)) {
    position -= 1;
    steps += 1;
  }
  return position;
}

/** The allowed range of the byte after a lead byte (no overlongs, surrogates or > U+10FFFF). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** How many bytes from `start` (lead included, at most `length`) form a valid UTF-8 prefix. */
function validPrefixLength(window: Uint8Array, start: number, length: number): number {
  const [low, high] = secondByteRange(window[start]!);
  let count = 1;
  while (count < length && start + count < window.length) {
    const byte = window[start + count]!;
    const ok = count === 1 ? byte >= low && byte <= high : isContinuationByte(byte);
    if (!ok) break;
    count += 1;
  }
  return count;
}

/** Tracks whether a stream, fed chunk by chunk, was ever invalid UTF-8 (native check per chunk). */
export class Utf8Validity {
  private carry: Buffer = Buffer.alloc(0);
  private invalid = false;

  /** Feed the next bytes of the stream. */
  push(chunk: Buffer): void {
    if (this.invalid) return;
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = completeCodePointEnd(bytes);
    if (!isUtf8(bytes.subarray(0, end))) {
      this.invalid = true;
      return;
    }
    this.carry = Buffer.from(bytes.subarray(end));
  }

  /** Whether any byte so far (including an unfinished sequence at the end) is invalid. */
  lossy(final: boolean): boolean {
    return this.invalid || (final && this.carry.length > 0);
  }
}
