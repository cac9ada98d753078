// The global layer's `inherit` (SPEC §23): which startup variables children see at all, applied
// first, before PATH normalisation and every layer. PATH is never filtered here: §9.5 sets it.

import type { InheritSetting } from "../manifest/types.js";
import { PATH_VARIABLE } from "./path-list.js";
import { matchesAnyPattern } from "./patterns.js";
import type { Environment } from "./variables.js";

/** Kept with any list (not with "none"): what programs need to work at all, as patterns. */
export const ALWAYS_INHERITED: readonly string[] = [
  "PATH",
  "HOME",
  "LANG",
  "LC_*",
  "TMPDIR",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
];

/** Kept as well on Windows, where a process cannot start or find its profile without them. */
export const ALWAYS_INHERITED_WINDOWS: readonly string[] = [
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
];

/** The patterns a variable must match to be inherited, or undefined for "all". */
export function inheritedPatterns(
  inherit: InheritSetting | undefined,
  platform: NodeJS.Platform,
): readonly string[] | undefined {
  if (inherit === undefined || inherit === "all") return undefined;
  if (inherit === "none") return [];
  const always =
    platform === "win32" ? [...ALWAYS_INHERITED, ...ALWAYS_INHERITED_WINDOWS] : ALWAYS_INHERITED;
  return [...always, ...inherit];
}

/**
 * Removes, in place, every variable `inherit` does not keep, and returns the names it removed
 * (as spelled in the environment). "all" (or no setting) keeps everything.
 */
export function applyInherit(
  env: Environment,
  inherit: InheritSetting | undefined,
  platform: NodeJS.Platform,
): string[] {
  const keep = inheritedPatterns(inherit, platform);
  if (keep === undefined) return [];
  const removed: string[] = [];
  for (const name of Object.keys(env)) {
    if (name.toUpperCase() === PATH_VARIABLE || matchesAnyPattern(name, keep)) continue;
    delete env[name];
    removed.push(name);
  }
  return removed;
}
