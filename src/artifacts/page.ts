// One page of a stored stream (SPEC §3.3): request checks, limit clamping, one positioned read
// into one buffer, and the utf8 or base64 projection.

import { isUtf8 } from "node:buffer";
import type { FileHandle } from "node:fs/promises";
import { CommandError, describeValue } from "../errors.js";
import { OUTPUT_PAGE_MAX_BASE64_BYTES, OUTPUT_PAGE_MAX_UTF8_BYTES } from "../limits.js";
import type { OutputEncoding, OutputPage } from "../output/types.js";
import { UTF8_LOOKAHEAD_BYTES, utf8PageEnd } from "./utf8.js";

/** A checked page request: limit already clamped to the encoding's maximum. */
export interface PageRequest {
  offset: number;
  limit: number;
  encoding: OutputEncoding;
}

// ignoreBOM keeps a leading U+FEFF in the text instead of swallowing it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Checks offset, limit and encoding and clamps the limit (larger limits are not refused). */
export function checkPageRequest(offset: unknown, limit: unknown, encoding: unknown): PageRequest {
  if (typeof offset !== "number" || !Number.isSafeInteger(offset) || offset < 0) {
    throw new CommandError(
      "INVALID_OUTPUT_OFFSET",
      `expected offset to be a non-negative integer byte offset, got ${describeValue(offset)}`,
    );
  }
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1) {
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

/** The offset check shared by stored and live reads: offset > length is refused. */
export function checkOffsetWithin(offset: number, length: number, what: string): void {
  if (offset > length) {
    throw new CommandError(
      "INVALID_OUTPUT_OFFSET",
      `expected offset at most ${length} (the length of ${what}), got ${offset}; ` +
        "start at 0 and follow nextOffset",
    );
  }
}

/**
 * Reads one page of the first `length` bytes of an open file. `eof` is nextOffset === length.
 * The caller has checked offset ≤ length. `final` is false for a live spool whose length may
 * still grow: a utf8 character cut by its current end then waits for the next page.
 */
export async function readPage(
  file: FileHandle,
  length: number,
  request: PageRequest,
  final = true,
): Promise<OutputPage> {
  const { offset, limit, encoding } = request;
  const remaining = length - offset;
  const want = Math.min(limit, remaining);
  const lookahead = encoding === "utf8" ? UTF8_LOOKAHEAD_BYTES : 0;
  const size = Math.min(want + lookahead, remaining);
  const window = await readExactly(file, offset, size);
  if (encoding === "base64") {
    return page(offset, want, length, encoding, { base64: window.toString("base64") });
  }
  const end = want === 0 ? 0 : utf8PageEnd(window, want, final);
  const bytes = window.subarray(0, end);
  const text = decoder.decode(bytes);
  return page(offset, end, length, encoding, { text, lossyUtf8: !isUtf8(bytes) });
}

function page(
  offset: number,
  bytes: number,
  length: number,
  encoding: OutputEncoding,
  content: Pick<OutputPage, "text" | "lossyUtf8" | "base64">,
): OutputPage {
  const nextOffset = offset + bytes;
  return { bytes, nextOffset, eof: nextOffset === length, encoding, ...content };
}

/** One buffer, filled by positioned reads (a read may return fewer bytes than asked). */
async function readExactly(file: FileHandle, position: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await file.read(buffer, filled, size - filled, position + filled);
    if (bytesRead === 0) {
      throw new CommandError(
        "ARTIFACT_NOT_FOUND",
        `expected ${size} bytes at offset ${position} of the stored stream, got ${filled}: ` +
          "it was changed or removed while being read",
      );
    }
    filled += bytesRead;
  }
  return buffer;
}
