// One page of a stream (SPEC §3.3) — the one page function for published artifacts, live spools
// and output that never left memory, so all three agree byte for byte: request checks, negative
// offsets, one read of one window, and the utf8 or base64 projection.

import { isUtf8 } from "node:buffer";
import { CommandError, describeValue } from "../errors.js";
import {
  MAX_UTF8_PAGE_ESCAPED_CHARS,
  OUTPUT_PAGE_MAX_BASE64_BYTES,
  OUTPUT_PAGE_MAX_UTF8_BYTES,
} from "../limits.js";
import { prefixWithinEscaped } from "./escaped-length.js";
import type { OutputEncoding, OutputPage, ReadBytes } from "./types.js";

export type { ReadBytes } from "./types.js";
import { nextCodePointBoundary, UTF8_LOOKAHEAD_BYTES, utf8PageEnd } from "./utf8.js";

/** A checked page request: limit already clamped to the encoding's maximum; offset may be < 0. */
export interface PageRequest {
  offset: number;
  limit: number;
  encoding: OutputEncoding;
}

// ignoreBOM keeps a leading U+FEFF in the text instead of swallowing it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Checks offset, limit and encoding and clamps the limit (larger limits are not refused). */
export function checkPageRequest(offset: unknown, limit: unknown, encoding: unknown): PageRequest {
  if (typeof offset !== "number" || !Number.isSafeInteger(offset)) {
    throw new CommandError(
      "INVALID_OUTPUT_OFFSET",
      `expected offset to be an integer byte offset (negative: from the end), got ${describeValue(offset)}`,
    );
  }
  // Any integer ≥ 1 is a valid limit, also past 2^53: it is clamped to the page maximum (§3.3).
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw new CommandError(
      "INVALID_OUTPUT_PAGE",
      `expected limit to be an integer of at least 1 byte, got ${describeValue(limit)}`,
    );
  }
  if (encoding !== "utf8" && encoding !== "base64") {
    throw new CommandError(
      "INVALID_OUTPUT_PAGE",
      `expected encoding "utf8" or "base64", got ${describeValue(encoding)}`,
    );
  }
  const max = encoding === "base64" ? OUTPUT_PAGE_MAX_BASE64_BYTES : OUTPUT_PAGE_MAX_UTF8_BYTES;
  return { offset, limit: Math.min(limit, max), encoding };
}

/** The offset check shared by every reader: offset > length is refused (negative ones pass). */
export function checkOffsetWithin(offset: number, length: number, what: string): void {
  if (offset > length) {
    throw new CommandError(
      "INVALID_OUTPUT_OFFSET",
      `expected offset at most ${length} (the length of ${what}), got ${offset}; ` +
        "start at 0 and follow nextOffset, or pass a negative offset to read the end",
    );
  }
}

/** Where a request starts in `length` bytes: a negative offset counts from the end, clamped to 0. */
export function resolveOffset(offset: number, length: number): number {
  return offset < 0 ? Math.max(0, length + offset) : offset;
}

/** A reader over bytes in memory. */
export function memoryReader(bytes: Buffer): ReadBytes {
  return async (position, size) => bytes.subarray(position, position + size);
}

/**
 * One page of the first `length` bytes of a stream (the caller has checked offset ≤ length).
 * `eof` is nextOffset === length. `final` is false for a live spool whose length may still grow:
 * a utf8 character cut by its current end then waits for the next page. `release` gets each
 * buffer `read` returned once the page no longer needs its bytes.
 */
export async function readPage(
  read: ReadBytes,
  length: number,
  request: PageRequest,
  final = true,
  release: (bytes: Buffer) => void = () => {},
): Promise<OutputPage> {
  const { limit, encoding } = request;
  const start = resolveOffset(request.offset, length);
  const want = Math.min(limit, length - start);
  if (encoding === "base64") {
    const bytes = await read(start, want);
    const base64 = bytes.toString("base64");
    release(bytes);
    return page(start, want, length, encoding, { base64 });
  }
  // After a negative offset the page may start inside a character: read the three bytes before
  // the start and three more after, to move it to the next boundary.
  const back = request.offset < 0 ? Math.min(start, UTF8_LOOKAHEAD_BYTES) : 0;
  const ahead = request.offset < 0 ? UTF8_LOOKAHEAD_BYTES : 0;
  const windowStart = start - back;
  const size = Math.min(back + want + ahead + UTF8_LOOKAHEAD_BYTES, length - windowStart);
  const window = await read(windowStart, size);
  const at = back > 0 ? nextCodePointBoundary(window, back) : back;
  const pageStart = windowStart + at;
  const pageWant = Math.min(limit, length - pageStart);
  const body = window.subarray(at, at + pageWant + UTF8_LOOKAHEAD_BYTES);
  let end = pageWant === 0 ? 0 : utf8PageEnd(body, pageWant, final);
  // The text must stay under 30,000 characters once JSON-escaped (§3.3), yet hold a character.
  const escapedEnd = prefixWithinEscaped(body, MAX_UTF8_PAGE_ESCAPED_CHARS - 1, end);
  if (escapedEnd > 0) end = escapedEnd;
  const bytes = body.subarray(0, end);
  const text = decoder.decode(bytes);
  const lossyUtf8 = !isUtf8(bytes);
  release(window);
  return page(pageStart, end, length, encoding, { text, lossyUtf8 });
}

/** An empty page at `offset` (a live read past the bytes so far). */
export function emptyPage(offset: number, encoding: OutputEncoding): OutputPage {
  const content = encoding === "base64" ? { base64: "" } : { text: "", lossyUtf8: false };
  return { offset, bytes: 0, nextOffset: offset, eof: false, encoding, ...content };
}

function page(
  offset: number,
  bytes: number,
  length: number,
  encoding: OutputEncoding,
  content: Pick<OutputPage, "text" | "lossyUtf8" | "base64">,
): OutputPage {
  const nextOffset = offset + bytes;
  return { offset, bytes, nextOffset, eof: nextOffset === length, encoding, ...content };
}
