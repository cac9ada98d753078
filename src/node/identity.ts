// File identities (dev, ino, size, mtime) recorded at startup and re-checked before launch (SPEC §12).

import { lstat } from "node:fs/promises";
import type { BigIntStats } from "node:fs";
import type { FileIdentity, RecordedFile } from "./types.js";

/** The identity of a file from its (bigint) stats. */
export function identityOf(stats: BigIntStats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs };
}

/** Whether two identities denote the same unchanged file. */
export function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Whether a recorded file is still the same regular file (not a symlink) it was at startup. */
export async function isUnchanged(file: RecordedFile): Promise<boolean> {
  try {
    const stats = await lstat(file.path, { bigint: true });
    return stats.isFile() && sameIdentity(file.identity, identityOf(stats));
  } catch {
    return false;
  }
}
