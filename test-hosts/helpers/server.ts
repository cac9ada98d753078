// The server under test as the hosts start it: absolute node, the built entry script, `serve`
// and flags, in a private temporary workspace (Root, artifact store, state directory).

import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import type { ServerLaunch } from "../../src/hosts/index.js";

/** The repository root (the parent of test-hosts/). */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The host packages installed from test-hosts/package-lock.json. */
export const HOST_MODULES = join(REPO_ROOT, "test-hosts", "node_modules");

/**
 * The built CLI entry. HOST_TESTS_SERVER_ENTRY may point at another build of the same CLI;
 * by default it is dist/cli/main.js, made by `npm run build`.
 */
export function serverEntry(): string {
  const entry = process.env.HOST_TESTS_SERVER_ENTRY ?? join(REPO_ROOT, "dist", "cli", "main.js");
  if (!existsSync(entry)) {
    throw new Error(`host tests need the built server at ${entry}: run \`npm run build\` first`);
  }
  return entry;
}

/** A temporary workspace for one host session. */
export interface Workspace {
  /** The directory holding everything below; removed by dispose(). */
  dir: string;
  /** The Root the server is started with (real path; its name has a space and a quote). */
  root: string;
  /** How the host starts the server. */
  launch: ServerLaunch;
  /** Remove the workspace. */
  dispose(): Promise<void>;
}

/**
 * Make a workspace and the launch a host would get from `print-config`: the Root's name holds a
 * space and a single quote so every snippet's quoting is exercised by a real parser.
 */
export function makeWorkspace(label: string, extraFlags: string[] = []): Workspace {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `sc-host-${label}-`)));
  const root = join(dir, "root with space 'q'");
  const artifacts = join(dir, "artifacts");
  const state = join(dir, "state");
  mkdirSync(root);
  const launch: ServerLaunch = {
    command: process.execPath,
    args: [serverEntry(), "serve", "--root", root, "--artifact-dir", artifacts, ...extraFlags],
    env: { XDG_STATE_HOME: state, XDG_CACHE_HOME: join(dir, "cache") },
  };
  return {
    dir,
    root,
    launch,
    dispose: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  };
}

/** Pids of live processes whose command line mentions `marker` (Linux only; else empty). */
export function processesMentioning(marker: string): number[] {
  if (process.platform !== "linux") return [];
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(marker) && state !== "Z") pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** Wait until no live process mentions `marker`, up to `timeoutMs`; return the survivors. */
export async function waitForNoProcesses(marker: string, timeoutMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = processesMentioning(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processesMentioning(marker);
  }
  return left;
}

/** Kill leftover processes that mention `marker` (a test failed midway); never pid ≤ 1. */
export function killProcessesMentioning(marker: string): void {
  for (const pid of processesMentioning(marker)) {
    if (Number.isInteger(pid) && pid > 1 && pid !== process.pid) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
}
