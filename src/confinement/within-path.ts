// Path containment for confinement (SPEC §20.1): whether a path lies inside a place, which
// writable place holds it, and the directories between a place and a path inside it (the ones a
// sandbox must make un-renamable by binding each onto itself).

import path from "node:path";

/**
 * Whether `child` is `parent` or below it. Both must be absolute and normalised (real paths, or
 * paths built with path.join/resolve): a string comparison, since this runs many times for every
 * confined execution.
 */
export function isWithin(child: string, parent: string): boolean {
  if (!child.startsWith(parent)) return false;
  return (
    child.length === parent.length || parent.endsWith(path.sep) || child[parent.length] === path.sep
  );
}

/** The outermost of `places` that holds `target`, or undefined when none does. */
export function outermostPlace(target: string, places: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const place of places) {
    if (!isWithin(target, place)) continue;
    if (found === undefined || place.length < found.length) found = place;
  }
  return found;
}

/**
 * The directories strictly below `place` down to `target` inclusive, outermost first:
 * `chainBelow("/r", "/r/a/b")` is `["/r/a", "/r/a/b"]`; empty when `target` is `place`.
 */
export function chainBelow(place: string, target: string): string[] {
  if (target.length === place.length || !isWithin(target, place)) return [];
  const chain: string[] = [];
  const start = place.endsWith(path.sep) ? place.length : place.length + 1;
  for (let at = target.indexOf(path.sep, start); at !== -1; at = target.indexOf(path.sep, at + 1)) {
    chain.push(target.slice(0, at));
  }
  chain.push(target);
  return chain;
}

/** Paths sorted outermost first (fewer segments first), duplicates removed. */
export function outermostFirst(paths: Iterable<string>): string[] {
  const depth = (value: string) => value.split(path.sep).length;
  return [...new Set(paths)].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}
