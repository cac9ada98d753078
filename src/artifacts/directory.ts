// A private directory for the store (SPEC §8): created 0700, and an existing one that other users
// could read or that another user owns is refused — never silently chmod'ed.

import { constants } from "node:fs";
import { access, chmod, mkdir, stat } from "node:fs/promises";
import { errnoCode } from "../errors.js";
import { PRIVATE_DIR_MODE } from "../file-modes.js";

/** POSIX permission bits: owner-only directories and files (src/file-modes.ts). */
export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../file-modes.js";
const GROUP_OTHER_BITS = 0o077;

/**
 * Make sure `dir` exists as a private directory of this user. Returns null when it is usable,
 * else a sentence saying what was expected and what was found (for the startup log).
 */
export async function ensurePrivateDirectory(dir: string): Promise<string | null> {
  try {
    const created = await createIfMissing(dir);
    if (created) await chmod(dir, PRIVATE_DIR_MODE);
    return await checkPrivateDirectory(dir);
  } catch (error) {
    return `expected a directory this user can create or use at ${dir}, got ${errnoCode(error)}`;
  }
}

/** Creates the directory (and missing parents, 0700) and says whether this call created it. */
async function createIfMissing(dir: string): Promise<boolean> {
  try {
    await stat(dir);
    return false;
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
  }
  // undefined when another process created it in the meantime.
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return first !== undefined;
}

/** Checks an existing directory: owner, mode bits, read/write/search access. */
async function checkPrivateDirectory(dir: string): Promise<string | null> {
  const info = await stat(dir);
  if (!info.isDirectory()) {
    return `expected ${dir} to be a directory, got another kind of file`;
  }
  if (process.platform !== "win32") {
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) {
      return `expected ${dir} to be owned by uid ${uid}, got uid ${info.uid}; refusing to use it`;
    }
    const loose = info.mode & GROUP_OTHER_BITS;
    if (loose !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
      return `expected ${dir} to be private (mode 700), got mode ${mode}; refusing to use it`;
    }
  }
  try {
    await access(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    return `expected ${dir} to be readable and writable, got ${errnoCode(error)}`;
  }
  return null;
}
