// Opening the store's own files safely (#14): any program the agent runs can plant a FIFO or a
// symlink in the store (same user). Reads never follow a symlink, never wait on a FIFO, and accept
// only regular files and real directories.

import { lstat } from "node:fs/promises";
import { errnoCode } from "../errors.js";

// The regular-file readers are shared with the crash registry (src/regular-file.ts).
export { NotRegularFileError, openRegularFile, readRegularFile } from "../regular-file.js";

/** What sits at a path, without following a symlink. */
export type EntryKind = "missing" | "file" | "directory" | "other";

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
