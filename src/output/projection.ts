// Bounded head+tail projection of one output stream with exact byte accounting (SPEC §7).

import type { StreamOutput } from "./types.js";
import { codePointStart, completeCodePointEnd, Utf8Validity } from "./utf8.js";

const EMPTY = Buffer.alloc(0);

/** The marker placed between head and tail; N is the number of omitted bytes. */
export function omissionMarker(omittedBytes: number): string {
  return `\n[... ${omittedBytes} bytes omitted ...]\n`;
}

export interface ProjectionLimits {
  maxOutputBytes: number;
  headBytes: number;
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

  /** The excerpt an agent sees; `final` marks an ended stream (an unfinished sequence is lossy). */
  snapshot(final: boolean): StreamOutput {
    const lossyUtf8 = this.validity.lossy(final);
    if (!this.overflowed) {
      return {
        truncated: false,
        totalBytes: this.total,
        omittedBytes: 0,
        lossyUtf8,
        text: this.retainedBytes().toString("utf8"),
      };
    }
    const headEnd = completeCodePointEnd(this.head, this.headLength);
    const tail = this.tailBytes();
    const tailStart = codePointStart(tail);
    const retained = headEnd + (tail.length - tailStart);
    const omittedBytes = this.total - retained;
    const text =
      this.head.subarray(0, headEnd).toString("utf8") +
      omissionMarker(omittedBytes) +
      tail.subarray(tailStart).toString("utf8");
    return { truncated: true, totalBytes: this.total, omittedBytes, lossyUtf8, text };
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
