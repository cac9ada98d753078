// UTF-8 helpers for byte-exact projection: code point boundaries and streaming validity (SPEC §7, §3.3).

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

/** Whether a complete byte sequence holds any invalid UTF-8. */
export function hasInvalidUtf8(bytes: Uint8Array): boolean {
  return !isUtf8(bytes);
}
