// Exact versions and ranges as project declarations write them (SPEC §12).

import semver from "semver";

const EXACT_VERSION = /^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

/** The normalised exact version (`20.1.0`) of `v20.1.0` / `20.1.0`, or undefined for anything else. */
export function parseExactVersion(text: string): string | undefined {
  const match = EXACT_VERSION.exec(text.trim());
  if (match === null) {
    return undefined;
  }
  return semver.valid(match[1]) ?? undefined;
}

/** The normalised semver range of a declaration, or undefined when it is not a valid range. */
export function parseRange(text: string): string | undefined {
  return semver.validRange(text.trim()) ?? undefined;
}

/** Whether `version` satisfies `range` (prereleases only when the range names them). */
export function satisfies(version: string, range: string): boolean {
  return semver.satisfies(version, range);
}

/** Sorts versions newest first. */
export function compareNewestFirst(a: string, b: string): number {
  return semver.rcompare(a, b);
}

/** The highest of `versions` satisfying `range`, if any. */
export function highestSatisfying(versions: readonly string[], range: string): string | undefined {
  return semver.maxSatisfying([...versions], range) ?? undefined;
}

/** What the messages say an exact selector must look like. */
export const EXACT_VERSION_EXPECTATION =
  "an exact version such as 20.11.1 or v20.11.1 (ranges and aliases like lts/*, node, stable, default are not accepted)";
