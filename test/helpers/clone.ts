// A clone of the repository under test, as `git clone` would give it, without touching the
// working tree the other tests run from: the files git tracks (plus new files not yet ignored)
// copied from the working tree, so uncommitted edits are tested too. No node_modules, no dist.

import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync, readlinkSync, symlinkSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./server.js";

/** The repository's files as a clone has them (relative paths), read from git. */
export function repositoryFiles(): string[] {
  const listing = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    { cwd: REPO_ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const files = listing.split("\0").filter((name) => name !== "");
  if (files.length === 0) throw new Error(`expected git to list files in ${REPO_ROOT}, got none`);
  // A tracked file deleted in the working tree is not part of the clone being tested.
  return [...new Set(files)].filter((name) => existsSync(path.join(REPO_ROOT, name)));
}

/** Copies the repository's files into `dest` (created); returns `dest`. */
export function cloneRepository(dest: string): string {
  for (const name of repositoryFiles()) {
    const from = path.join(REPO_ROOT, name);
    const to = path.join(dest, name);
    mkdirSync(path.dirname(to), { recursive: true });
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else copyFileSync(from, to);
  }
  return dest;
}
