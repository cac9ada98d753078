// The paths `init` and `print-config` write into host snippets (SPEC §13): a literal `~` (a
// quoted `'~/src'` the shell did not expand) means the home directory, and a path that does not
// exist or is not absolute is printed anyway but warned about on stderr.

import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { logLine } from "../log.js";

/** `~` alone, or `~/…` (also `~\…` on Windows): the home directory of the user running us. */
export function expandHome(
  value: string,
  homeDir: string = os.homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  if (value === "~") return homeDir;
  const separators = platform === "win32" ? ["~/", "~\\"] : ["~/"];
  if (separators.some((prefix) => value.startsWith(prefix))) {
    return path.join(homeDir, value.slice(2));
  }
  return value;
}

/** What a path flag must name: a Root is a directory, a manifest a file. */
export type PathKind = "directory" | "file";

/** The kind of file at a path, or undefined when nothing is there (or it cannot be looked at). */
function kindAt(file: string): PathKind | "other" | undefined {
  try {
    const info = statSync(file);
    return info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
  } catch {
    return undefined;
  }
}

/**
 * Warnings about one path flag as written (after `~` expansion): not absolute (it is resolved
 * against the current directory into the snippet), missing, or of the wrong kind.
 */
export function pathWarnings(flag: string, given: string, expected: PathKind): string[] {
  const warnings: string[] = [];
  const absolute = path.resolve(given);
  if (!path.isAbsolute(given)) {
    warnings.push(
      `${flag} ${given} is not absolute: the snippet uses ${absolute} (resolved against the ` +
        `current directory ${process.cwd()}); pass an absolute path to be sure`,
    );
  }
  const found = kindAt(absolute);
  if (found === undefined) {
    warnings.push(
      `${flag} ${absolute} does not exist: the server will refuse to start until it does ` +
        `(expected an existing ${expected})`,
    );
  } else if (found !== expected) {
    warnings.push(
      `${flag} ${absolute} is not a ${expected}: the server will refuse to start with it ` +
        `(expected an existing ${expected}, got another kind of file)`,
    );
  }
  return warnings;
}

/** The --manifest and --root values of a command, `~` expanded. */
export interface SnippetPaths {
  manifest?: string;
  roots: string[];
}

/** Expands `~` in --manifest and every --root, and warns on stderr about each doubtful one. */
export function checkSnippetPaths(
  manifest: string | undefined,
  roots: readonly string[],
): SnippetPaths {
  const expandedRoots = roots.map((root) => expandHome(root));
  const warnings = expandedRoots.flatMap((root) => pathWarnings("--root", root, "directory"));
  const result: SnippetPaths = { roots: expandedRoots };
  if (manifest !== undefined) {
    result.manifest = expandHome(manifest);
    warnings.unshift(...pathWarnings("--manifest", result.manifest, "file"));
  }
  for (const warning of warnings) logLine(`warning: ${warning}`);
  return result;
}
