// What of a policy's paths exists when an execution starts (SPEC §20): hidden paths that are there
// (missing ones are ignored) and protected paths inside the writable Roots (one the program creates
// later is not protected).

import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { withoutStackTraces } from "../without-stack-traces.js";
import type { HiddenMount, SandboxPolicy } from "./types.js";

/** Whether `child` is `parent` or below it. */
export function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * The real path of an existing path, or undefined when it does not exist (or cannot be read).
 * The libc realpath (one call, not an lstat per component); most candidates do not exist, so
 * their ENOENT is built without a stack trace. This runs for every confined execution.
 */
function existingRealPath(candidate: string): string | undefined {
  try {
    return withoutStackTraces(() => realpathSync.native(candidate));
  } catch {
    return undefined;
  }
}

/**
 * Hidden paths that exist now, as real paths with their kind. With a private `/tmp`, a path below
 * `/tmp` is invisible inside anyway and skipped, unless a writable bind (`bound`) shows it again.
 */
export function findHiddenMounts(
  paths: readonly string[],
  privateTmp: boolean,
  bound: readonly string[] = [],
): HiddenMount[] {
  const found = new Map<string, HiddenMount>();
  for (const given of paths) {
    const real = existingRealPath(given);
    if (real === undefined || found.has(real)) continue;
    const visible = !isWithin(real, "/tmp") || bound.some((place) => isWithin(real, place));
    if (privateTmp && !visible) continue;
    let directory: boolean;
    try {
      directory = statSync(real).isDirectory();
    } catch {
      continue;
    }
    found.set(real, { path: real, kind: directory ? "directory" : "file" });
  }
  return [...found.values()];
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
