// Temporary directories, executables and manifests for the manifest/environment/programs tests.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/** A POSIX shell script that does nothing; the tests never run it. */
export const NOOP_SCRIPT = "#!/bin/sh\nexit 0\n";

/** Creates temporary directories and removes them all in `cleanup()`. */
export class TempTree {
  private readonly roots: string[] = [];

  /** A new empty directory. */
  dir(prefix = "scm-manifest-"): string {
    const root = mkdtempSync(path.join(os.tmpdir(), prefix));
    this.roots.push(root);
    return root;
  }

  /** Removes every directory made so far. */
  cleanup(): void {
    for (const root of this.roots.splice(0)) rmSync(root, { recursive: true, force: true });
  }
}

/** A TempTree whose directories are removed after each test. */
export function tempTreePerTest(): TempTree {
  const tree = new TempTree();
  afterEach(() => tree.cleanup());
  return tree;
}

/** Writes a file (creating its directory) with a mode; returns its path. */
export function writeFile(file: string, content: string, mode = 0o644): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
}

/** Writes an executable script `dir/name`; returns its path. */
export function writeExecutable(dir: string, name: string, content = NOOP_SCRIPT): string {
  return writeFile(path.join(dir, name), content, 0o755);
}

/** Writes a manifest object as JSON to `dir/name`; returns its path. */
export function writeManifest(
  dir: string,
  manifest: unknown,
  name = "system-command-manifest.json",
): string {
  return writeFile(path.join(dir, name), JSON.stringify(manifest, null, 2));
}

/** Runs a function expected to throw a CommandError; returns it (fails the test otherwise). */
export function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("expected an error, but nothing was thrown");
}

/** Awaits a promise expected to reject with a CommandError; returns it. */
export async function rejected(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("expected a rejection, but the promise resolved");
}
