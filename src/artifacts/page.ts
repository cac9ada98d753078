// Pages of stored streams (SPEC §3.3): the one page function of output/page.ts over positioned
// reads of an open file.

import type { FileHandle } from "node:fs/promises";
import { CommandError } from "../errors.js";
import { readPage as readStreamPage, type PageRequest } from "../output/page.js";
import { ScratchBuffers } from "../output/scratch.js";
import type { OutputPage, ReadBytes } from "../output/types.js";

export { checkOffsetWithin, checkPageRequest, type PageRequest } from "../output/page.js";

/**
 * Reads one page of the first `length` bytes of an open file (see output/page.ts `readPage`).
 * `final` is false for a live spool whose length may still grow.
 */
export function readPage(
  file: FileHandle,
  length: number,
  request: PageRequest,
  final = true,
): Promise<OutputPage> {
  const read: ReadBytes = (position, size) => readExactly(file, position, pageScratch.take(size));
  return readStreamPage(read, length, request, final, (bytes) => pageScratch.give(bytes));
}

/** Page reads go through reused buffers: a 1 MiB page is read, encoded and given back. */
const pageScratch = new ScratchBuffers();

/** Positioned reads of an open file. */
export function fileReadBytes(file: FileHandle): ReadBytes {
  return (position, size) => readExactly(file, position, Buffer.allocUnsafe(size));
}

/** Fills `buffer` from `position` by positioned reads (a read may return fewer bytes than asked). */
async function readExactly(file: FileHandle, position: number, buffer: Buffer): Promise<Buffer> {
  const size = buffer.length;
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
