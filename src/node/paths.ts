// Path helpers of Project Node resolution: `~/` expansion and containment (SPEC §1, §11, §12).

import path from "node:path";

/** A Windows drive path (`C:\\…`, `C:/…`), which the schema accepts on every platform. */
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;

/**
 * Expands a leading `~/` with the home directory; other paths are returned resolved.
 * A drive path on a POSIX host is kept as written: it simply does not exist there.
 */
export function expandHome(value: string, homeDir: string): string {
  if (value.startsWith("~/")) {
    return path.join(homeDir, value.slice(2));
  }
  if (DRIVE_PATH.test(value) && !path.isAbsolute(value)) {
    return value;
  }
  return path.resolve(value);
}

/** Whether a path written in the manifest is absolute, a drive path or `~/` (the schema's rule). */
export function isAbsoluteOrHome(value: string): boolean {
  return value.startsWith("~/") || DRIVE_PATH.test(value) || path.isAbsolute(value);
}

/** Whether `child` is `parent` or lies below it (both absolute, already real paths). */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  if (relative === "") {
    return true;
  }
  const escapes = relative === ".." || relative.startsWith(`..${path.sep}`);
  return !escapes && !path.isAbsolute(relative);
}

/** The deepest directory of `candidates` that contains `target`, if any. */
export function deepestContaining(
  candidates: readonly string[],
  target: string,
): string | undefined {
  let best: string | undefined;
  for (const candidate of candidates) {
    if (!isInside(candidate, target)) {
      continue;
    }
    if (best === undefined || candidate.length > best.length) {
      best = candidate;
    }
  }
  return best;
}

/** The directories from `start` up to and including `boundary` (start must be inside it). */
export function walkUp(start: string, boundary: string): string[] {
  const directories: string[] = [];
  let current = start;
  while (isInside(boundary, current)) {
    directories.push(current);
    const parent = path.dirname(current);
    if (current === boundary || parent === current) {
      break;
    }
    current = parent;
  }
  return directories;
}
