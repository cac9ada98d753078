// Candidate resolution (SPEC §1, §10): the first candidate that resolves wins; later matches are shadowed.

import { realpathSync } from "node:fs";
import path from "node:path";
import { CommandError } from "../errors.js";
import { candidateForm } from "../manifest/candidate-form.js";
import type { DirectoryListings } from "./directory-listings.js";
import { qualifyingExecutable, type ExecutableRules } from "./executable-file.js";

/** Everything a candidate is resolved against. */
export interface ResolveContext extends ExecutableRules {
  /** The program's PATH directories (its own, after its layers). */
  pathDirs: readonly string[];
  homeDir: string;
  /** The manifest file's directory; absent in Automatic Discovery Mode or for an in-memory manifest. */
  manifestDirectory?: string;
  /** The program the candidates belong to, for messages. */
  program: string;
  /** Listings shared by the programs of one catalog build (POSIX: names match files exactly). */
  listings?: DirectoryListings;
}

/** A candidate that resolved. */
export interface CandidateMatch {
  candidate: string;
  /** Where it was found: the process is spawned through this path. */
  foundPath: string;
  /** The found path with symlinks resolved: reported as `executable`. */
  realPath: string;
}

export interface CandidateResolution {
  winner?: CandidateMatch;
  /** Found paths of later PATH entries and later candidates that would also have matched. */
  shadowed: string[];
}

const WINDOWS_ABSOLUTE_DIRECTORY = /^(?:[A-Za-z]:[\\/]|[\\/])/;

/** Relative PATH entries would depend on the server's cwd: they never resolve candidates. */
function isAbsoluteDirectory(directory: string, platform: NodeJS.Platform): boolean {
  return platform === "win32"
    ? WINDOWS_ABSOLUTE_DIRECTORY.test(directory)
    : directory.startsWith("/");
}

/** The file a path-like candidate names, or undefined for a foreign-platform path. */
function candidateFile(candidate: string, context: ResolveContext): string | undefined {
  const form = candidateForm(candidate, context.platform);
  if (form === "home") return path.join(context.homeDir, candidate.slice(2));
  if (form === "absolute") return candidate;
  if (form !== "manifest-relative") return undefined;
  if (context.manifestDirectory === undefined) {
    throw new CommandError(
      "MANIFEST_DIRECTORY_REQUIRED",
      `program "${context.program}": candidate "${candidate}" is relative to the manifest file, but the manifest was not loaded from a file; use an absolute path`,
    );
  }
  return path.resolve(context.manifestDirectory, candidate);
}

/** Every path under which a candidate qualifies, in lookup order. */
function candidateMatches(candidate: string, context: ResolveContext): string[] {
  if (candidateForm(candidate, context.platform) !== "bare") {
    const file = candidateFile(candidate, context);
    const found = file === undefined ? undefined : qualifyingExecutable(file, context);
    return found === undefined ? [] : [found];
  }
  const found: string[] = [];
  // Windows finds `git` as `git.exe`, case-insensitively: there every directory is looked into.
  const listings = context.platform === "win32" ? undefined : context.listings;
  for (const directory of context.pathDirs) {
    if (!isAbsoluteDirectory(directory, context.platform)) continue;
    if (listings && !listings.mayContain(directory, candidate)) continue;
    const match = qualifyingExecutable(path.join(directory, candidate), context);
    if (match !== undefined) found.push(match);
  }
  return found;
}

/** The real path of a found executable, or undefined if it vanished meanwhile. */
function realPathOf(file: string): string | undefined {
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** Resolves candidates in order; the first match wins, every other match is reported as shadowed. */
export function resolveCandidates(
  candidates: readonly string[],
  context: ResolveContext,
): CandidateResolution {
  let winner: CandidateMatch | undefined;
  const shadowed: string[] = [];
  for (const candidate of candidates) {
    for (const foundPath of candidateMatches(candidate, context)) {
      if (winner === undefined) {
        const realPath = realPathOf(foundPath);
        if (realPath !== undefined) winner = { candidate, foundPath, realPath };
      } else if (foundPath !== winner.foundPath && !shadowed.includes(foundPath)) {
        shadowed.push(foundPath);
      }
    }
  }
  return winner === undefined ? { shadowed: [] } : { winner, shadowed };
}
