// Runs the built CLI (dist/cli/main.js) as a user would, for the test/cli-*.test.ts files.

import { spawnSync } from "node:child_process";
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_ENTRY = path.join(REPO_ROOT, "dist/cli/main.js");

/** Upper bound of one CLI run; a run that hangs fails the test instead of the suite. */
export const CLI_TIMEOUT_MS = 30_000;

/** What one CLI run printed and how it ended. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Options of one run. */
export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin (a pipe, so never a TTY); default: empty. */
  input?: string;
}

/** Runs `node dist/cli/main.js …args` to completion. */
export function runCli(args: string[], options: CliOptions = {}): CliRun {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: CLI_TIMEOUT_MS,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The `CODE` of the first `system-command-mcp: CODE: message` line on stderr. */
export function errorCode(stderr: string): string | undefined {
  return /^system-command-mcp: ([A-Z_]+): /m.exec(stderr)?.[1];
}

/** A fresh real temp directory. */
export function tempDir(prefix = "scm-cli-"): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Removes a temp directory and everything in it. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes an executable file (parent directories created). */
export function writeExecutable(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

/** Writes a JSON file and returns its path. */
export function writeJson(file: string, value: unknown): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** The directory holding the first `name` on this process's PATH, if any. */
export function directoryOnPath(name: string): string | undefined {
  for (const directory of (process.env.PATH ?? "").split(path.delimiter)) {
    if (directory === "") continue;
    try {
      accessSync(path.join(directory, name), constants.X_OK);
      return directory;
    } catch {
      // not here
    }
  }
  return undefined;
}
