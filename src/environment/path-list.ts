// PATH-style lists: split and joined with the platform's delimiter, empty entries dropped (SPEC §9.5).

import { getVariable } from "./variables.js";

/** The name of the search path variable. */
export const PATH_VARIABLE = "PATH";

/** The name of the Windows executable extension list. */
export const PATHEXT_VARIABLE = "PATHEXT";

/** `;` on Windows, `:` elsewhere. */
export function pathDelimiter(platform: NodeJS.Platform): string {
  return platform === "win32" ? ";" : ":";
}

/** The entries of a PATH-style value, empty ones dropped. */
export function splitPathList(value: string | undefined, platform: NodeJS.Platform): string[] {
  if (value === undefined) return [];
  return value.split(pathDelimiter(platform)).filter((entry) => entry !== "");
}

/** A PATH-style value from directories. */
export function joinPathList(directories: readonly string[], platform: NodeJS.Platform): string {
  return directories.join(pathDelimiter(platform));
}

/** The PATH directories of an environment (empty when PATH is unset). */
export function pathDirectoriesOf(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
): string[] {
  return splitPathList(getVariable(env, PATH_VARIABLE, platform), platform);
}
