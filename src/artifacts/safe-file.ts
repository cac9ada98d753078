// Opening the store's own files safely (#14): any program the agent runs can plant a FIFO or a
// symlink in the store (same user). Reads never follow a symlink, never wait on a FIFO, and accept
// only regular files and real directories.

import { constants } from "node:fs";
import { lstat, open, type FileHandle } from "node:fs/promises";
import { errnoCode } from "../errors.js";

/** O_NOFOLLOW | O_NONBLOCK where the platform has them (Windows has neither, nor FIFOs). */
const SAFE_READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** What sits at a path, without following a symlink. */
export type EntryKind = "missing" | "file" | "directory" | "other";

/** Thrown by openRegularFile for anything but a regular file (code ENOTREG). */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
}

/**
 * Opens a regular file for reading; a symlink (ELOOP), FIFO, socket, device or directory is
 * refused at once (NotRegularFileError), never waited on.
 */
export async function openRegularFile(file: string): Promise<FileHandle> {
  const handle = await open(file, SAFE_READ_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotRegularFileError(`${file} is not a regular file`);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** A regular file's bytes (at most `maxBytes`); null when missing, not regular, or longer. */
export async function readRegularFile(file: string, maxBytes: number): Promise<Buffer | null> {
  let handle: FileHandle;
  try {
    handle = await openRegularFile(file);
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled > maxBytes ? null : buffer.subarray(0, filled);
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The kind of the entry at `file` (lstat: a symlink is "other", whatever it points to). */
export async function entryKind(file: string): Promise<EntryKind> {
  try {
    const info = await lstat(file);
    if (info.isFile()) return "file";
    if (info.isDirectory()) return "directory";
    return "other";
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? "missing" : "other";
  }
}

/** The size of a regular file (not followed through a symlink); null for anything else. */
export async function regularFileSize(file: string): Promise<number | null> {
  try {
    const info = await lstat(file);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}
