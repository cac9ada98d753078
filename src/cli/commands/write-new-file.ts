// Writes a manifest file that must not exist yet (MANIFEST_EXISTS), or may be replaced with --force.

import { writeFile } from "node:fs/promises";
import { CommandError, errnoCode } from "../../errors.js";

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
    await writeFile(file, text, { encoding: "utf8", flag: options.overwrite ? "w" : "wx" });
  } catch (error) {
    if (errnoCode(error) === "EEXIST") throw manifestExists(file, options.howToOverwrite);
    throw new CommandError(
      "INVALID_OPTION",
      `could not write the manifest to ${file} (${errnoCode(error)}); expected a writable path ` +
        `in an existing directory`,
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
