// Line-by-line matching over a byte stream fed in chunks, bounded per match call (BoundedPattern)
// and paced between calls (MatchPacer), so that one scan never holds the event loop (issue #14).

import type { BoundedPattern } from "./pattern.js";
import type { MatchPacer } from "./pacer.js";

export interface LineHit {
  /** Byte offset of the line's start in the stream. */
  offset: number;
  /** The line as matched: its first maxLineBytes, without the newline and a trailing CR. */
  line: Buffer;
}

/** The state of one scan: where it got to and the unfinished line so far. */
export class LineSearch {
  /** The next stream offset to feed. */
  offset: number;
  private lineStart: number;
  private parts: Buffer[] = [];
  private kept = 0;

  constructor(
    fromOffset: number,
    private readonly pattern: BoundedPattern,
  ) {
    this.offset = fromOffset;
    this.lineStart = fromOffset;
  }

  /**
   * Feeds the bytes at `offset`. Returns the first matching complete line, or undefined once the
   * bytes are used up or the pacer's deadline passed (then `offset` says where to continue).
   */
  async feed(bytes: Buffer, pacer: MatchPacer): Promise<LineHit | undefined> {
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline < 0) break;
      this.keep(bytes.subarray(start, newline));
      this.offset += newline + 1 - start;
      start = newline + 1;
      const hit = this.testLine();
      this.parts = [];
      this.kept = 0;
      this.lineStart = this.offset;
      if (hit) return hit;
      if (!(await pacer.pace())) return undefined;
    }
    this.keep(bytes.subarray(start));
    this.offset += bytes.length - start;
    return undefined;
  }

  /** Tests the unfinished last line (output that has no newline yet), if any. */
  testPending(): LineHit | undefined {
    return this.kept > 0 ? this.testLine() : undefined;
  }

  private keep(bytes: Buffer): void {
    const room = this.pattern.maxLineBytes + 1 - this.kept; // one more byte: a CR to strip
    if (room <= 0 || bytes.length === 0) return;
    const part = bytes.subarray(0, room);
    this.parts.push(part);
    this.kept += part.length;
  }

  private testLine(): LineHit | undefined {
    let line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.kept);
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
    line = line.subarray(0, this.pattern.maxLineBytes);
    return this.pattern.test(line) ? { offset: this.lineStart, line } : undefined;
  }
}
