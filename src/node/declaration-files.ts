// Reading one project declaration file safely: regular files only, bounded size (SPEC §12).

import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { CommandError, errnoCode } from "../errors.js";

/** Open flags that refuse a symlink swapped in after lstat (where the platform has O_NOFOLLOW). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** Errors that mean "no such file here", so the walk just moves on. */
const ABSENT_CODES = new Set(["ENOENT", "ENOTDIR"]);

/**
 * The text of a declaration file, or undefined when it does not exist.
 * A symlink, a non-file, an oversized or unreadable file is NODE_DECLARATION_INVALID.
 */
export async function readDeclarationFile(
  file: string,
  maxBytes: number,
): Promise<string | undefined> {
  let stats;
  try {
    stats = await lstat(file);
  } catch (error) {
    if (ABSENT_CODES.has(errnoCode(error))) {
      return undefined;
    }
    throw invalid(file, `could not be inspected (${errnoCode(error)})`);
  }
  if (stats.isSymbolicLink()) {
    throw invalid(file, "expected a regular file, got a symbolic link");
  }
  if (!stats.isFile()) {
    throw invalid(file, "expected a regular file, got a directory or special file");
  }
  if (stats.size > maxBytes) {
    throw invalid(file, `expected at most ${maxBytes} bytes, got ${stats.size}`);
  }
  return readBounded(file, maxBytes);
}

/** Reads at most `maxBytes` from a file that must still be a regular file once opened. */
async function readBounded(file: string, maxBytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    throw invalid(file, `could not be read (${errnoCode(error)})`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw invalid(file, "expected a regular file, got a directory or special file");
    }
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) {
        break;
      }
      length += bytesRead;
    }
    if (length > maxBytes) {
      throw invalid(file, `expected at most ${maxBytes} bytes, got more`);
    }
    return buffer.subarray(0, length).toString("utf8");
  } catch (error) {
    if (error instanceof CommandError) {
      throw error;
    }
    throw invalid(file, `could not be read (${errnoCode(error)})`);
  } finally {
    await handle.close();
  }
}

/** NODE_DECLARATION_INVALID naming the file. */
export function invalid(file: string, problem: string): CommandError {
  return new CommandError(
    "NODE_DECLARATION_INVALID",
    `Node version declaration ${file}: ${problem}. Fix or remove the file.`,
  );
}
