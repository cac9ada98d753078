// The spool of one stream (SPEC §8, §19): one open write stream per stream for the whole
// execution, a byte cap, backpressure, and a count of the bytes already in the file.

import { createWriteStream, type WriteStream } from "node:fs";
import { BYTE_UNITS } from "../limits.js";
import { PRIVATE_FILE_MODE } from "./directory.js";

/** Bytes buffered in memory per stream before write() asks the caller to wait for drain. */
export const SPOOL_HIGH_WATER_MARK = 1 * BYTE_UNITS.MiB;

/** Writes one stream's bytes to its spool file; never throws. */
export class SpoolWriter {
  /** Bytes handed to the file stream (at most the cap). */
  accepted = 0;
  /** Bytes whose write has completed: readable from the file. */
  flushed = 0;
  /** Some bytes were not written because the cap was reached. */
  capped = false;
  /** A write (or the open) failed; later bytes are dropped. */
  failed = false;
  private readonly stream: WriteStream;
  private ended = false;

  constructor(
    file: string,
    private readonly maxBytes: number,
    /** Told whenever written bytes became readable from the file (live readers wait on it). */
    private readonly onFlushed: () => void = () => {},
  ) {
    this.stream = createWriteStream(file, {
      flags: "wx",
      mode: PRIVATE_FILE_MODE,
      highWaterMark: SPOOL_HIGH_WATER_MARK,
    });
    this.stream.on("error", () => {
      this.failed = true;
    });
  }

  /** Appends bytes up to the cap; false when the caller should wait for drained(). */
  write(chunk: Buffer): boolean {
    if (this.failed || this.ended || this.capped) return true;
    const room = this.maxBytes - this.accepted;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.capped = true;
    if (part.length === 0) return true;
    this.accepted += part.length;
    try {
      return this.stream.write(part, (error) => {
        if (!error) this.flushed += part.length;
        this.onFlushed();
      });
    } catch {
      this.failed = true;
      return true;
    }
  }

  /** Resolves once the buffered bytes have gone below the high-water mark (or writing stopped). */
  drained(): Promise<void> {
    const stream = this.stream;
    if (this.failed || stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stream.off("drain", done);
        stream.off("close", done);
        resolve();
      };
      stream.on("drain", done);
      stream.on("close", done);
    });
  }

  /** No more bytes will reach the file: ended, capped with everything flushed, or failed. */
  get settled(): boolean {
    if (this.failed || this.stream.closed) return true;
    return (this.ended || this.capped) && this.flushed === this.accepted;
  }

  /** Ends the stream and waits until its file is closed. */
  async end(): Promise<void> {
    this.ended = true;
    const stream = this.stream;
    if (stream.closed) return;
    await new Promise<void>((resolve) => {
      stream.once("close", () => resolve());
      if (!stream.writableEnded && !stream.destroyed) stream.end();
    });
  }

  /** Stops writing at once (discard): pending bytes are dropped, the file is closed. */
  async abort(): Promise<void> {
    this.ended = true;
    const stream = this.stream;
    if (stream.closed) return;
    await new Promise<void>((resolve) => {
      stream.once("close", () => resolve());
      stream.destroy();
    });
  }
}
