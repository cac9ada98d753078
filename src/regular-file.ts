// Opening the server's own files safely (#14): any program the agent runs can plant a FIFO or a
// symlink where the server keeps its files (same user). These readers never follow a symlink,
// never wait on a FIFO, and accept only regular files. The one implementation, used by the
// artifact store (artifacts/safe-file.ts), the crash registry (process/crash-registry.ts) and the
// approvals store (policy/approvals.ts).

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { errnoCode } from "./errors.js";

/** O_RDONLY | O_NOFOLLOW | O_NONBLOCK where the platform has them (Windows has neither, nor FIFOs). */
export const SAFE_READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

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
    const fill = new BoundedFill(maxBytes);
    while (fill.took((await handle.read(...fill.nextRead())).bytesRead)) {}
    return fill.bytes();
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * The same read, synchronously, for callers that run before the event loop matters (startup):
 * undefined when the file is gone (ENOENT), null when it is anything but a regular file of at
 * most `maxBytes` bytes (or cannot be read), else its bytes.
 */
export function readRegularFileSync(file: string, maxBytes: number): Buffer | null | undefined {
  let fd: number;
  try {
    fd = openSync(file, SAFE_READ_FLAGS);
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? undefined : null;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return null;
    const fill = new BoundedFill(maxBytes);
    while (fill.took(readSync(fd, ...fill.nextRead()))) {}
    return fill.bytes();
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The bounded read both readers drive (one with `handle.read`, one with `readSync`): successive
 * reads into one buffer of `maxBytes + 1` bytes, until end of file or the buffer is full; the one
 * byte more than allowed is how a longer file is told apart.
 */
class BoundedFill {
  private readonly buffer: Buffer;
  private filled = 0;

  constructor(private readonly maxBytes: number) {
    this.buffer = Buffer.alloc(maxBytes + 1);
  }

  /** The next read's arguments: buffer, offset, length, file position. */
  nextRead(): [Buffer, number, number, number] {
    return [this.buffer, this.filled, this.buffer.length - this.filled, this.filled];
  }

  /** Counts a read's bytes; whether to read again (not at end of file, and room left). */
  took(bytesRead: number): boolean {
    this.filled += bytesRead;
    return bytesRead > 0 && this.filled < this.buffer.length;
  }

  /** The bytes read, or null when the file is longer than `maxBytes`. */
  bytes(): Buffer | null {
    return this.filled > this.maxBytes ? null : this.buffer.subarray(0, this.filled);
  }
}
