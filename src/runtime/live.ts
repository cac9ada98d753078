// Live reads of a handed-out execution: pages of the spool with an optional wait for more bytes,
// and line-by-line pattern matching for system_wait `until` (§19, §3.3).

import { CommandError } from "../errors.js";
import {
  MAX_MATCH_TEXT_BYTES,
  OUTPUT_PAGE_MAX_BASE64_BYTES,
  OUTPUT_PAGE_MAX_UTF8_BYTES,
} from "../limits.js";
import { LineSearch, type LineHit } from "../search/line-search.js";
import type { MatchPacer } from "../search/pacer.js";
import type { BoundedPattern } from "../search/pattern.js";
import { completeCodePointEnd, hasInvalidUtf8, sequenceLength } from "../output/utf8.js";
import type { Execution } from "./execution.js";
import type { OutputEncoding, OutputPage, StreamName } from "./types.js";

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

export interface LineMatch {
  stream: StreamName;
  offset: number;
  text: string;
}

/** Scans one stream's spool line by line from an offset, remembering where it got to. */
export class LineScanner {
  private readonly search: LineSearch;
  private stopped = false;

  constructor(
    private readonly stream: StreamName,
    fromOffset: number,
    pattern: BoundedPattern,
  ) {
    this.search = new LineSearch(fromOffset, pattern);
  }

  /**
   * Reads what is new in the spool; the first matching line (or unfinished last line) wins. Stops
   * early, without a match, when the pacer's deadline passes (the next scan continues from there).
   */
  async scan(execution: Execution, pacer: MatchPacer): Promise<LineMatch | undefined> {
    const staging = execution.liveOutput.staging;
    if (!staging || this.stopped) return undefined;
    for (;;) {
      let page;
      try {
        page = await staging.readLive(
          this.stream,
          this.search.offset,
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
      const hit = await this.search.feed(Buffer.from(page.base64 ?? "", "base64"), pacer);
      if (hit) return this.report(hit);
      if (pacer.expired) return undefined;
    }
    const pending = this.search.testPending();
    return pending ? this.report(pending) : undefined;
  }

  private report(hit: LineHit): LineMatch {
    const text = truncateUtf8(hit.line.toString("utf8"), MAX_MATCH_TEXT_BYTES);
    return { stream: this.stream, offset: hit.offset, text };
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
