// Writes a manifest file that must not exist yet (MANIFEST_EXISTS), or may be replaced with --force.

import { chmod, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CommandError, errnoCode } from "../../errors.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../file-modes.js";

/** Directories init creates inside the home directory: the manifest is private (SPEC §13). */
const PRIVATE_PARENT_MODE = PRIVATE_DIR_MODE;

/** Whether `dir` is the home directory or below it. */
function isInside(dir: string, home: string): boolean {
  const relative = path.relative(home, dir);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Creates the missing directories above `file` (0700 when under the home directory, else the
 * default mode less umask); an existing directory is left as it is.
 */
export async function createParentDirectories(file: string, home = os.homedir()): Promise<void> {
  const dir = path.dirname(file);
  const mode = isInside(dir, path.resolve(home)) ? PRIVATE_PARENT_MODE : undefined;
  try {
    await mkdir(dir, { recursive: true, ...(mode !== undefined && { mode }) });
  } catch (error) {
    throw new CommandError(
      "INVALID_OPTION",
      `could not create the directory ${dir} for the manifest (${errnoCode(error)}); expected ` +
        `a path whose missing directories this user can create`,
    );
  }
}

/** JSON as the manifests are written: two-space indentation and a final newline. */
export function manifestText(manifest: unknown): string {
  return JSON.stringify(manifest, null, 2) + "\n";
}

/** What to do when the file already exists. */
export interface WriteNewFileOptions {
  /** Replace an existing file instead of failing. */
  overwrite: boolean;
  /** How to overwrite, for the MANIFEST_EXISTS message (e.g. "pass --force"). */
  howToOverwrite: string;
}

/** Creates `file` with `text` atomically against a concurrent creator (`wx`), unless overwriting. */
export async function writeNewFile(
  file: string,
  text: string,
  options: WriteNewFileOptions,
): Promise<void> {
  try {
    await writeFile(file, text, {
      encoding: "utf8",
      flag: options.overwrite ? "w" : "wx",
      mode: PRIVATE_FILE_MODE,
    });
    // An overwritten file keeps its old mode otherwise.
    if (options.overwrite && process.platform !== "win32") await chmod(file, PRIVATE_FILE_MODE);
  } catch (error) {
    if (errnoCode(error) === "EEXIST") throw manifestExists(file, options.howToOverwrite);
    throw new CommandError(
      "INVALID_OPTION",
      `could not write the manifest to ${file} (${errnoCode(error)}); expected a writable path ` +
        `in a writable directory`,
    );
  }
}

/** MANIFEST_EXISTS naming the file and the way out. */
export function manifestExists(file: string, howToOverwrite: string): CommandError {
  return new CommandError(
    "MANIFEST_EXISTS",
    `${file} already exists; expected a path with no file yet (${howToOverwrite})`,
  );
}
