// Runs the bundled CLI (dist/cli/bundle/*.cjs, written by scripts/bundle.mjs) as a vm.Script
// with a V8 code cache kept in the per-user private cache directory (SPEC §16 cold start; Node 20
// has no module.enableCompileCache). The cache only saves compile time: V8 checks it against the
// source, its version and its flags and rejects a mismatch (`cachedDataRejected`), and then the
// script compiles from source as if there were no cache. Any failure to read or write the cache
// is silent: the CLI behaves the same with or without it.

import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";
import { defaultArtifactDir } from "../artifacts/default-dir.js";

/** Setting this environment variable to "1" turns the code cache off (compile from source). */
export const NO_CODE_CACHE_ENV = "SYSTEM_COMMAND_MCP_NO_CODE_CACHE";
const CODE_CACHE_DIR = "code-cache";
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** A cache file larger than this is not ours (the bundles' caches are a few MiB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
const CACHE_SUFFIX = ".bin";
/** Cache files kept per bundle and command: this build's and the two before (side-by-side installs). */
const KEPT_BUILDS = 3;

/** The directory of the code caches: next to the default artifact store (§8), one per user. */
export function codeCacheDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  homeDir: string = os.homedir(),
): string {
  const paths = platform === "win32" ? path.win32 : path.posix;
  return paths.join(paths.dirname(defaultArtifactDir(env, platform, homeDir)), CODE_CACHE_DIR);
}

/** The wrapper the bundle runs in: CommonJS's, plus the loader of the other bundles. */
const WRAPPER_PARAMS = [
  "exports",
  "require",
  "module",
  "__filename",
  "__dirname",
  "__scmLoad",
  "__scmUrl",
] as const;

type Loaded = Record<string, unknown>;

/** Loads bundles by name from one directory, each evaluated once, each with its code cache. */
export class BundleLoader {
  private readonly loaded = new Map<string, Loaded>();
  private readonly pending: { name: string; script: vm.Script; cacheFile: string }[] = [];
  private readonly cacheDir: string | undefined;

  private readonly variant: string;

  /**
   * `stamp` identifies the build (the bundles' content hash), so caches of other builds are
   * apart; each command keeps its own cache, holding the functions that command compiles.
   */
  constructor(
    private readonly bundleDir: string,
    private readonly stamp: string,
    argv: readonly string[] = process.argv.slice(2),
    env: Record<string, string | undefined> = process.env,
  ) {
    this.cacheDir = env[NO_CODE_CACHE_ENV] === "1" ? undefined : safeCodeCacheDir(env);
    const command = argv[0];
    this.variant = command !== undefined && /^[a-z][a-z-]{0,31}$/.test(command) ? command : "serve";
    process.once("exit", () => this.writeCaches());
  }

  /** The exports of bundle `name` (dist/cli/bundle/<name>.cjs), evaluating it on first use. */
  load(name: string): Loaded {
    const done = this.loaded.get(name);
    if (done) return done;
    const file = path.join(this.bundleDir, `${name}.cjs`);
    const source = readFileSync(file, "utf8");
    const cacheFile = this.cacheDir
      ? path.join(
          this.cacheDir,
          `${name}-${this.variant}-${this.stamp}-${process.version}-${process.arch}${CACHE_SUFFIX}`,
        )
      : undefined;
    const cachedData = cacheFile ? readPrivateFile(cacheFile) : undefined;
    const script = new vm.Script(`(function (${WRAPPER_PARAMS.join(", ")}) {${source}\n})`, {
      filename: file,
      cachedData,
    });
    if (cacheFile && (cachedData === undefined || script.cachedDataRejected === true)) {
      this.pending.push({ name, script, cacheFile });
    }
    const module = { exports: {} as Loaded };
    this.loaded.set(name, module.exports);
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run(
      module.exports,
      createRequire(file),
      module,
      file,
      path.dirname(file),
      (other: string) => this.load(other),
      pathToFileURL(file).href,
    );
    this.loaded.set(name, module.exports);
    return module.exports;
  }

  /**
   * At exit, so the cache holds the functions this run compiled too (lazily compiled functions
   * are only in a cache made after they ran): written once, atomically, never over a good one.
   */
  private writeCaches(): void {
    for (const { name, script, cacheFile } of this.pending.splice(0)) {
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, script.createCachedData(), { mode: PRIVATE_FILE_MODE, flag: "wx" });
        renameSync(temp, cacheFile);
        pruneOtherBuilds(path.dirname(cacheFile), `${name}-${this.variant}-`);
      } catch {
        rmSync(temp, { force: true });
      }
    }
  }
}

/**
 * Caches of other builds of the same bundle and command, past the newest KEPT_BUILDS: every
 * upgrade (or rebuild) writes a new cache file, and nothing else would ever remove the old ones.
 */
function pruneOtherBuilds(dir: string, prefix: string): void {
  const builds = readdirSync(dir)
    .filter((entry) => entry.startsWith(prefix) && entry.endsWith(CACHE_SUFFIX))
    .map((entry) => {
      try {
        return { file: path.join(dir, entry), mtime: lstatSync(path.join(dir, entry)).mtimeMs };
      } catch {
        return undefined; // removed by another process meanwhile
      }
    })
    .filter((build) => build !== undefined)
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of builds.slice(KEPT_BUILDS)) rmSync(file, { force: true });
}

/** The cache directory, created 0700; undefined when it is not a private directory of ours. */
function safeCodeCacheDir(env: Record<string, string | undefined>): string | undefined {
  try {
    const dir = codeCacheDir(env);
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (process.platform === "win32") return dir; // the per-user ACL of %LOCALAPPDATA%
    const stat = lstatSync(dir);
    const mine = typeof process.getuid !== "function" || stat.uid === process.getuid();
    if (!stat.isDirectory() || !mine || (stat.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** A regular file of ours that nobody else can write (not followed through a symlink), or undefined. */
function readPrivateFile(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size === 0 || stat.size > MAX_CACHE_BYTES) return undefined;
    if (process.platform !== "win32") {
      const mine = typeof process.getuid !== "function" || stat.uid === process.getuid();
      if (!mine || (stat.mode & 0o022) !== 0) return undefined;
    }
    const data = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    return data;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
