// The effective global PATH of Configured Mode (SPEC §9.5).

import path from "node:path";
import { CommandError } from "../errors.js";
import { candidateForm } from "../manifest/candidate-form.js";
import { pathDirectoriesOf } from "./path-list.js";
import type { StartupEnvironment } from "./variables.js";

/** What a `searchPath` entry is resolved against. */
export interface SearchPathContext {
  platform: NodeJS.Platform;
  homeDir: string;
  /** The manifest file's directory; absent when the manifest did not come from a file. */
  manifestDirectory?: string;
}

/** One `searchPath` entry made usable: `~/` and `./`/`../` expanded, anything else kept as written. */
export function expandSearchPathEntry(entry: string, context: SearchPathContext): string {
  const form = candidateForm(entry, context.platform);
  if (form === "home") return path.join(context.homeDir, entry.slice(2));
  if (form !== "manifest-relative") return entry;
  if (context.manifestDirectory === undefined) {
    throw new CommandError(
      "MANIFEST_DIRECTORY_REQUIRED",
      `searchPath entry "${entry}" is relative to the manifest file, but the manifest was not loaded from a file; use an absolute path`,
    );
  }
  return path.resolve(context.manifestDirectory, entry);
}

/** Platform searchPath, then base searchPath (already in that order), then the inherited PATH if allowed. */
export function effectiveGlobalPath(options: {
  searchPath: readonly string[];
  allowInheritedPath: boolean;
  startupEnv: StartupEnvironment;
  context: SearchPathContext;
}): string[] {
  const declared = options.searchPath
    .filter((entry) => entry !== "")
    .map((entry) => expandSearchPathEntry(entry, options.context));
  if (!options.allowInheritedPath) return declared;
  return [...declared, ...pathDirectoriesOf(options.startupEnv, options.context.platform)];
}
