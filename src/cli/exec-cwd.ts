// Where `exec` runs (SPEC §13, Revision 3): the shell's working directory when it lies inside a
// Root, else the only Root, else CWD_NOT_ALLOWED; `--cwd` is relative to the shell's directory.

import { realpathSync } from "node:fs";
import path from "node:path";
import { CommandError } from "../errors.js";
import { isInside, type Root } from "../roots/roots.js";
import { expandHome } from "./commands/path-arguments.js";

/** The shell's working directory as a real path, or undefined when it is gone or unreadable. */
function shellDirectory(): string | undefined {
  try {
    return realpathSync.native(process.cwd());
  } catch {
    return undefined;
  }
}

/**
 * The cwd `exec` asks the runtime for: an absolute path (the runtime still authorises it, §11),
 * or undefined for "the only Root".
 */
export function execCwd(requested: string | undefined, roots: readonly Root[]): string | undefined {
  const shell = shellDirectory();
  if (requested !== undefined) {
    const expanded = expandHome(requested);
    if (path.isAbsolute(expanded)) return expanded;
    if (shell === undefined) {
      throw new CommandError(
        "CWD_NOT_FOUND",
        `--cwd ${requested} is relative, but the shell's working directory no longer exists; ` +
          "give an absolute --cwd",
      );
    }
    return path.resolve(shell, expanded);
  }
  if (shell !== undefined && roots.some((root) => isInside(shell, root.path))) return shell;
  if (roots.length === 1) return undefined;
  throw new CommandError(
    "CWD_NOT_ALLOWED",
    `the shell's working directory ${shell ?? "(gone)"} is outside every Root (${roots
      .map((root) => root.path)
      .join(", ")}) and there are ${roots.length} Roots to choose from; ` +
      "cd into one of them or pass --cwd <dir inside a Root>",
  );
}
