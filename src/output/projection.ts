// Bounded head+tail projection of one output stream with exact byte accounting (SPEC §7).

import type { StreamOutput } from "./types.js";
import { codePointStart, completeCodePointEnd, Utf8Validity } from "./utf8.js";

const EMPTY = Buffer.alloc(0);

/** The marker placed between head and tail; N is the number of omitted bytes. */
export function omissionMarker(omittedBytes: number): string {
  return `\n[... ${omittedBytes} bytes omitted ...]\n`;
}

/** What one stream keeps in memory: `maxOutputBytes` in all, the first `headBytes` of them. */
export interface ProjectionLimits {
  maxOutputBytes: number;
  headBytes: number;
}

/** The bytes an excerpt shows: all of them (`whole`), or a head and a tail around a gap. */
export interface ExcerptParts {
  whole: boolean;
  head: Buffer;
  tail: Buffer;
}

/** Where the bytes of an excerpt sit in their stream (a running snapshot shows a range, §19). */
export interface ExcerptRange {
  /** Offset of the first byte of the range (0: the whole stream). */
  start: number;
  /** Bytes in the range. */
  length: number;
  /** Report `sinceOffset` (running snapshots only). */
  since: boolean;
}

/**
 * The StreamOutput for excerpt parts of a stream of `totalBytes`, or of a range of it (SPEC §7 key
 * order: truncated, totalBytes, sinceOffset, omittedBytes, omittedFrom, lossyUtf8, text).
 */
export function excerptOf(
  parts: ExcerptParts,
  stream: { totalBytes: number; lossy(final: boolean): boolean },
  final: boolean,
  range: ExcerptRange = { start: 0, length: stream.totalBytes, since: false },
): StreamOutput {
  const totalBytes = stream.totalBytes;
  const lossyUtf8 = stream.lossy(final);
  const omittedBytes = range.length - parts.head.length - parts.tail.length;
  const since = range.since ? { sinceOffset: range.start } : {};
  if (omittedBytes === 0) {
    const text = parts.whole
      ? parts.head.toString("utf8")
      : Buffer.concat([parts.head, parts.tail]).toString("utf8");
    return { truncated: false, totalBytes, ...since, omittedBytes, lossyUtf8, text };
  }
  const text =
    parts.head.toString("utf8") + omissionMarker(omittedBytes) + parts.tail.toString("utf8");
  const omittedFrom = range.start + parts.head.length;
  return { truncated: true, totalBytes, ...since, omittedBytes, omittedFrom, lossyUtf8, text };
}

/**
 * Keeps the first `headBytes` and the last `maxOutputBytes - headBytes` bytes of a stream, whatever
 * its volume; while the stream fits in `maxOutputBytes`, that is every byte.
 */
export class StreamProjection {
  /**
   * Allocated on the first byte: most executions print little or nothing, and every buffer a call
   * leaves for the GC grows the malloc heap that each later fork() has to copy (SPEC §16).
   */
  private head: Buffer = EMPTY;
  private headLength = 0;
  private ring: Buffer = EMPTY;
  private ringStart = 0;
  private ringLength = 0;
  private total = 0;
  private readonly validity = new Utf8Validity();

  constructor(private readonly limits: ProjectionLimits) {}

  /** Bytes seen so far. */
  get totalBytes(): number {
    return this.total;
  }

  /** Whether the stream no longer fits inline. */
  get overflowed(): boolean {
    return this.total > this.limits.maxOutputBytes;
  }

  /** Account for the next chunk. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.total === 0) this.allocate();
    this.validity.push(chunk);
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.head.length) {
      const take = Math.min(rest.length, this.head.length - this.headLength);
      rest.copy(this.head, this.headLength, 0, take);
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) this.pushTail(rest);
  }

  /** Every byte seen so far, valid only while the stream has not overflowed. */
  retainedBytes(): Buffer {
    return Buffer.concat([this.head.subarray(0, this.headLength), this.tailBytes()]);
  }

  /** The excerpt of this stream alone, its whole capacity as share (see inline-budget.ts). */
  snapshot(final: boolean): StreamOutput {
    const share = this.limits.maxOutputBytes;
    return excerptOf(this.parts(share, Math.min(this.limits.headBytes, share)), this, final);
  }

  /** Whether any byte so far was invalid UTF-8; `final`: an unfinished sequence counts too. */
  lossy(final: boolean): boolean {
    return this.validity.lossy(final);
  }

  /**
   * The bytes an excerpt with this share shows (share ≤ maxOutputBytes, head ≤ headBytes): the
   * whole stream while it fits, else the first `head` bytes cut back to a complete code point and
   * the last `share - head` bytes from a code point start.
   */
  parts(share: number, head: number): ExcerptParts {
    if (this.total <= share) return { whole: true, head: this.retainedBytes(), tail: EMPTY };
    const headPart = this.head.subarray(0, completeCodePointEnd(this.head, head));
    const tail = this.lastBytes(share - head);
    return { whole: false, head: headPart, tail: tail.subarray(codePointStart(tail)) };
  }

  /**
   * A copy of bytes [position, position + size) when memory still holds all of them (the whole
   * stream before it overflowed; afterwards the head, or the last bytes in the ring), else
   * undefined. A copy: the ring is overwritten as the stream goes on.
   */
  copyOf(position: number, size: number): Buffer | undefined {
    const end = position + size;
    if (position < 0 || end > this.total) return undefined;
    if (size === 0) return EMPTY;
    if (!this.overflowed) return Buffer.from(this.retainedBytes().subarray(position, end));
    if (end <= this.headLength) return Buffer.from(this.head.subarray(position, end));
    const tailStart = this.total - this.ringLength;
    if (position < tailStart) return undefined;
    return Buffer.from(this.tailBytes().subarray(position - tailStart, end - tailStart));
  }

  /** The first offset of the bytes the ring holds (0 while the stream fits in memory). */
  get memoryTailStart(): number {
    return this.overflowed ? this.total - this.ringLength : 0;
  }

  /** The last n bytes of the stream (n ≤ what is retained after the head's share). */
  private lastBytes(n: number): Buffer {
    if (!this.overflowed) return this.retainedBytes().subarray(this.total - n);
    const tail = this.tailBytes();
    return tail.subarray(tail.length - n);
  }

  /** Only bytes written are ever read back, so the buffers need no zero fill. */
  private allocate(): void {
    this.head = Buffer.allocUnsafeSlow(this.limits.headBytes);
    this.ring = Buffer.allocUnsafeSlow(this.limits.maxOutputBytes - this.limits.headBytes);
  }

  private pushTail(bytes: Buffer): void {
    const size = this.ring.length;
    if (size === 0) return;
    if (bytes.length >= size) {
      bytes.copy(this.ring, 0, bytes.length - size);
      this.ringStart = 0;
      this.ringLength = size;
      return;
    }
    let writeAt = (this.ringStart + this.ringLength) % size;
    let offset = 0;
    while (offset < bytes.length) {
      const n = Math.min(bytes.length - offset, size - writeAt);
      bytes.copy(this.ring, writeAt, offset, offset + n);
      offset += n;
      writeAt = (writeAt + n) % size;
    }
    const overflow = Math.max(0, this.ringLength + bytes.length - size);
    this.ringLength = Math.min(size, this.ringLength + bytes.length);
    this.ringStart = (this.ringStart + overflow) % size;
  }

  private tailBytes(): Buffer {
    const size = this.ring.length;
    if (this.ringStart + this.ringLength <= size) {
      return this.ring.subarray(this.ringStart, this.ringStart + this.ringLength);
    }
    const firstPart = this.ring.subarray(this.ringStart);
    const secondPart = this.ring.subarray(0, this.ringLength - firstPart.length);
    return Buffer.concat([firstPart, secondPart]);
  }
}
