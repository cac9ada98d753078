// PATH-style lists: split and joined with the platform's delimiter, empty entries dropped (SPEC §9.5).

import { getVariable, setVariable, type Environment } from "./variables.js";

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

/**
 * A copy of `env` whose PATH starts with `directory` (a Project Node's bin directory, §12). The
 * variable is found by exact name on POSIX and case-insensitively only on Windows.
 */
export function prependToPath(
  env: Environment,
  directory: string,
  platform: NodeJS.Platform,
): Environment {
  const current = getVariable(env, PATH_VARIABLE, platform);
  const value = current ? directory + pathDelimiter(platform) + current : directory;
  const copy = { ...env };
  setVariable(copy, PATH_VARIABLE, value, platform);
  return copy;
}
