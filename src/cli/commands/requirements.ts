// The usage checks management commands share (SPEC §5, §11): kept here rather than imported from
// bootstrap.ts, which loads the whole runtime.

import { CommandError } from "../../errors.js";
import type { CommonOptions } from "../options.js";

/** Configured mode needs at least one --root (ROOT_REQUIRED, exit 2). */
export function requireRootsForManifest(options: CommonOptions, command: string): void {
  if (options.manifest !== undefined && (options.root ?? []).length === 0) {
    throw new CommandError(
      "ROOT_REQUIRED",
      `${command} with --manifest needs at least one --root <dir> (where executions may start), got none`,
    );
  }
}

/** The manifest a command works on (MANIFEST_REQUIRED, exit 2, when none was given). */
export function requireManifest(
  manifest: string | undefined,
  command: string,
  how: string,
): string {
  if (manifest === undefined || manifest === "") {
    throw new CommandError("MANIFEST_REQUIRED", `${command} needs a manifest: ${how}, got none`);
  }
  return manifest;
}
