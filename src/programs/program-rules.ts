// The executable rules of a program's own environment: Windows resolves with that environment's PATHEXT.

import { getVariable } from "../environment/variables.js";
import { PATHEXT_VARIABLE } from "../environment/path-list.js";
import { DEFAULT_PATHEXT, parsePathExt, type ExecutableRules } from "./executable-file.js";

/** The rules a program's candidates are checked with: its environment's PATHEXT on Windows. */
export function qualifyingExecutableRules(
  env: Record<string, string>,
  platform: NodeJS.Platform,
): ExecutableRules {
  if (platform !== "win32") return { platform, pathExt: [] };
  const pathExt = getVariable(env, PATHEXT_VARIABLE, platform) ?? DEFAULT_PATHEXT;
  return { platform, pathExt: parsePathExt(pathExt) };
}
