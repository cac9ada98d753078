// Live reads of a handed-out execution: pages of the spool with an optional wait for more bytes,
// and line-by-line pattern matching for system_wait `until` (§19, §3.3).

import { MAX_MATCH_TEXT_BYTES, OUTPUT_PAGE_MAX_BASE64_BYTES } from "../limits.js";
import { LineSearch, type LineHit } from "../search/line-search.js";
import type { MatchPacer } from "../search/pacer.js";
import type { BoundedPattern } from "../search/pattern.js";
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
    const wasDone = execution.done;
    const page = await execution.liveOutput.readLive(stream, offset, limit, encoding, wasDone);
    const { available: _available, ...result } = page;
    if (result.bytes > 0 || result.eof || wasDone) return result;
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return result;
    await waitForActivity(execution, left, signal);
  }
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
