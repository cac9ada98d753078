// What of a policy's paths exists when an execution starts (SPEC §20): hidden paths that are there
// (missing ones are ignored) and protected paths inside the writable Roots (one the program creates
// later is not protected).

import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { withoutStackTraces } from "../without-stack-traces.js";
import type { HiddenMount, SandboxPolicy } from "./types.js";
import { isWithin } from "./within-path.js";

export { isWithin } from "./within-path.js";

/**
 * The real path of an existing path, or undefined when it does not exist (or cannot be read).
 * This runs for every path of every confined execution, and most do not exist: a stat that
 * reports a missing entry without throwing comes first (no error object built), then the libc
 * realpath (one call, not an lstat per component) for the ones that do.
 */
export function existingRealPath(candidate: string): string | undefined {
  try {
    if (statSync(candidate, { throwIfNoEntry: false }) === undefined) return undefined;
    return withoutStackTraces(() => realpathSync.native(candidate));
  } catch {
    return undefined;
  }
}

/**
 * Hidden paths that exist now, as real paths with their kind. A path below one of `covered` (the
 * private `/tmp`, the empty `/run` of `network: "deny"`) is invisible inside anyway and skipped,
 * unless a bind (`bound`: the Roots, the writable paths) shows it again — then it is hidden there
 * too (§20.1 item 4: hidden in every mode, wherever it lies).
 */
export function findHiddenMounts(
  paths: readonly string[],
  covered: readonly string[],
  bound: readonly string[] = [],
): HiddenMount[] {
  const found = new Map<string, HiddenMount>();
  for (const given of paths) {
    const real = existingRealPath(given);
    if (real === undefined || found.has(real)) continue;
    const visible =
      !covered.some((place) => isWithin(real, place)) ||
      bound.some((place) => isWithin(real, place));
    if (!visible) continue;
    let directory: boolean;
    try {
      directory = statSync(real).isDirectory();
    } catch {
      continue;
    }
    found.set(real, { path: real, kind: directory ? "directory" : "file" });
  }
  // A path inside a hidden directory is hidden with it (and could not be mounted on there).
  const dirs = [...found.values()].filter((mount) => mount.kind === "directory");
  return [...found.values()].filter(
    (mount) => !dirs.some((dir) => dir.path !== mount.path && isWithin(mount.path, dir.path)),
  );
}

/**
 * The protected paths that exist now inside each writable Root (real paths, deduplicated). One
 * that resolves (through a symlink) outside every writable place is read-only already and skipped.
 */
export function findProtectedMounts(policy: SandboxPolicy, roots: readonly string[]): string[] {
  if (policy.filesystem !== "workspace-write") return [];
  const writable = [...roots, ...policy.writablePaths];
  const found = new Set<string>();
  for (const root of roots) {
    for (const relative of policy.protectedPaths) {
      const real = existingRealPath(path.join(root, relative));
      if (real === undefined) continue;
      if (writable.some((place) => isWithin(real, place))) found.add(real);
    }
  }
  return [...found];
}
