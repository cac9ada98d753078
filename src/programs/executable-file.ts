// Whether a file qualifies as an executable on a platform (SPEC §10), with sync fs calls only.

import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

/** The extensions Windows tries when the manifest sets no `pathExt`. */
export const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/** App Execution Alias stubs live under a WindowsApps directory. */
const WINDOWS_APPS_SEGMENT = /[\\/]WindowsApps[\\/]/i;

/** How executables are recognised on one platform. */
export interface ExecutableRules {
  platform: NodeJS.Platform;
  /** Extensions with their dot, as PATHEXT spells them (Windows only). */
  pathExt: readonly string[];
}

/** The extensions of a PATHEXT value, empty entries dropped. */
export function parsePathExt(value: string): string[] {
  return value
    .split(";")
    .map((extension) => extension.trim())
    .filter((extension) => extension !== "");
}

/** A zero-length `.exe` under WindowsApps: an App Execution Alias stub, not a program. */
function isWindowsAppsStub(file: string, size: number): boolean {
  return (
    size === 0 && WINDOWS_APPS_SEGMENT.test(file) && path.extname(file).toLowerCase() === ".exe"
  );
}

/** Windows: an existing regular file that is not an alias stub. */
function qualifiesOnWindows(file: string): boolean {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats !== undefined && stats.isFile() && !isWindowsAppsStub(file, stats.size);
}

/** POSIX: an existing regular file (after symlinks) the server may execute. */
function qualifiesOnPosix(file: string): boolean {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The names a file may be found under: on Windows with PATHEXT extensions when it has none of them. */
export function executableNames(file: string, rules: ExecutableRules): string[] {
  if (rules.platform !== "win32") return [file];
  const extension = path.extname(file).toLowerCase();
  const known = rules.pathExt.some((pathExtension) => pathExtension.toLowerCase() === extension);
  if (extension !== "" && known) return [file];
  const withExtensions = rules.pathExt.map((pathExtension) => `${file}${pathExtension}`);
  return extension === "" ? withExtensions : [file, ...withExtensions];
}

/** The path under which `file` qualifies as an executable, or undefined. */
export function qualifyingExecutable(file: string, rules: ExecutableRules): string | undefined {
  const qualifies = rules.platform === "win32" ? qualifiesOnWindows : qualifiesOnPosix;
  return executableNames(file, rules).find((name) => qualifies(name));
}
