// Live reads of a handed-out execution: pages of the spool with an optional wait for more bytes,
// and line-by-line pattern matching for system_wait `until` (§19, §3.3).

import type { RE2JS } from "re2js";
import { CommandError } from "../errors.js";
import {
  MAX_MATCH_TEXT_BYTES,
  MAX_PATTERN_CHARS,
  OUTPUT_PAGE_MAX_BASE64_BYTES,
  OUTPUT_PAGE_MAX_UTF8_BYTES,
} from "../limits.js";
import { completeCodePointEnd, hasInvalidUtf8, sequenceLength } from "../output/utf8.js";
import type { Execution } from "./execution.js";
import type { OutputEncoding, OutputPage, StreamName } from "./types.js";

/** Longest line kept for matching; a longer line is matched on its first bytes. */
const MAX_SCANNED_LINE_BYTES = 64 * 1024;

/**
 * Resolves after `ms`, on the execution's end, on abort, or (unless `outputToo` is false) on new
 * readable output — whichever comes first. Every listener is removed when it resolves.
 */
export function waitForActivity(
  execution: Execution,
  ms: number,
  signal?: AbortSignal,
  outputToo = true,
) {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || execution.done || signal?.aborted) return resolve();
    const finish = () => {
      clearTimeout(timer);
      unsubscribeOutput();
      unsubscribeDone();
      signal?.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    const unsubscribeOutput = outputToo ? execution.liveOutput.onData(finish) : () => {};
    const unsubscribeDone = execution.onDone(finish);
    signal?.addEventListener("abort", finish, { once: true });
  });
}

/** One page of a handed-out execution's stream; past the bytes so far, waits up to waitMs. */
export async function readLivePage(
  execution: Execution,
  stream: StreamName,
  offset: number,
  limit: number,
  encoding: OutputEncoding,
  waitMs: number,
  signal?: AbortSignal,
): Promise<OutputPage> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const staging = execution.liveOutput.staging;
    const memory = execution.done ? execution.liveOutput.inMemory(stream) : undefined;
    if (!staging && memory) return memoryPage(memory, offset, limit, encoding);
    if (!staging) {
      throw new CommandError(
        "ARTIFACT_NOT_FOUND",
        `the output of execution ${execution.id} is not stored (the artifact store is unavailable)`,
      );
    }
    const wasDone = execution.done;
    const page = await staging.readLive(stream, offset, limit, encoding);
    const { available: _available, ...result } = page;
    if (result.bytes > 0 || result.eof || wasDone) return result;
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return result;
    await waitForActivity(execution, left, signal);
  }
}

/**
 * A page of a finished stream that never left memory (an execution that ended before its handle
 * could start a spool): the same page rules as the store's.
 */
function memoryPage(
  bytes: Buffer,
  offset: number,
  limit: number,
  encoding: OutputEncoding,
): OutputPage {
  if (offset > bytes.length) {
    throw new CommandError(
      "INVALID_OUTPUT_OFFSET",
      `offset must be at most the stream length ${bytes.length}, got ${offset}`,
    );
  }
  const max = encoding === "base64" ? OUTPUT_PAGE_MAX_BASE64_BYTES : OUTPUT_PAGE_MAX_UTF8_BYTES;
  let end = Math.min(bytes.length, offset + Math.min(limit, max));
  if (encoding === "utf8" && end < bytes.length) {
    const cut = offset + completeCodePointEnd(bytes.subarray(offset, end + 3), end - offset);
    end = cut > offset ? cut : Math.min(bytes.length, offset + sequenceLength(bytes[offset]!));
  }
  const slice = bytes.subarray(offset, end);
  const page = { bytes: slice.length, nextOffset: end, eof: end === bytes.length, encoding };
  if (encoding === "base64") return { ...page, base64: slice.toString("base64") };
  return { ...page, text: slice.toString("utf8"), lossyUtf8: hasInvalidUtf8(slice) };
}

/** Compiles an `until.pattern` (RE2 syntax, linear time) or throws INVALID_PATTERN. */
export async function compilePattern(pattern: string): Promise<RE2JS> {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new CommandError(
      "INVALID_PATTERN",
      `until.pattern may have at most ${MAX_PATTERN_CHARS} characters, got ${pattern.length}`,
    );
  }
  const { RE2JS: Engine } = await import("re2js"); // loaded on the first `until`, not at startup
  try {
    return Engine.compile(pattern);
  } catch (error) {
    throw new CommandError(
      "INVALID_PATTERN",
      `until.pattern is not valid RE2 syntax: ${(error as Error).message}`,
    );
  }
}

export interface LineMatch {
  stream: StreamName;
  offset: number;
  text: string;
}

/** Scans one stream's spool line by line from an offset, remembering where it got to. */
export class LineScanner {
  private offset: number;
  private lineStart: number;
  private line: Buffer = Buffer.alloc(0);
  private stopped = false;

  constructor(
    private readonly stream: StreamName,
    fromOffset: number,
    private readonly pattern: RE2JS,
  ) {
    this.offset = fromOffset;
    this.lineStart = fromOffset;
  }

  /** Reads what is new in the spool; the first matching line (or unfinished last line) wins. */
  async scan(execution: Execution): Promise<LineMatch | undefined> {
    const staging = execution.liveOutput.staging;
    if (!staging || this.stopped) return undefined;
    for (;;) {
      let page;
      try {
        page = await staging.readLive(
          this.stream,
          this.offset,
          OUTPUT_PAGE_MAX_BASE64_BYTES,
          "base64",
        );
      } catch {
        // Past the spool's cap, or no spool to read (store unavailable, discarded): nothing more
        // will arrive, so only what was read so far can match.
        this.stopped = true;
        break;
      }
      if (page.bytes === 0) break;
      const bytes = Buffer.from(page.base64 ?? "", "base64");
      const found = this.consume(bytes);
      if (found) return found;
    }
    return this.line.length > 0 ? this.test(this.line, this.lineStart) : undefined;
  }

  private consume(bytes: Buffer): LineMatch | undefined {
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, start);
      if (newline < 0) break;
      this.append(bytes.subarray(start, newline));
      const match = this.test(this.line, this.lineStart);
      const consumed = newline + 1 - start;
      this.offset += consumed;
      if (match) return match;
      this.lineStart = this.offset;
      this.line = Buffer.alloc(0);
      start = newline + 1;
    }
    this.append(bytes.subarray(start));
    this.offset += bytes.length - start;
    return undefined;
  }

  private append(bytes: Buffer): void {
    if (this.line.length >= MAX_SCANNED_LINE_BYTES) return;
    const room = MAX_SCANNED_LINE_BYTES - this.line.length;
    this.line = Buffer.concat([this.line, bytes.subarray(0, room)]);
  }

  private test(line: Buffer, offset: number): LineMatch | undefined {
    const text = line.toString("utf8").replace(/\r$/, "");
    if (!this.pattern.test(text)) return undefined;
    return { stream: this.stream, offset, text: truncateUtf8(text, MAX_MATCH_TEXT_BYTES) };
  }
}

/** The longest prefix of `text` within `maxBytes` of UTF-8. */
function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}
