// What the tests of the lint's scripts (layering.test.ts, file-size.test.ts) share: a source tree
// written into a temp dir (removed after each test), and a run of a script on it.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/**
 * A writer of source trees ({ "process/a.ts": "..." }) into fresh temp dirs, each removed after
 * the test that made it. Call once at the top of a test file.
 */
export function sourceTrees(prefix: string): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (files) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    return dir;
  };
}

/** Runs `node <script> <dir>`; its exit status and stderr. */
export function runScript(script: string, dir: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [script, dir], { encoding: "utf8", timeout: 30_000 });
  return { status: run.status, stderr: run.stderr };
}
