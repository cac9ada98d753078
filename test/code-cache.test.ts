// The bundled CLI's V8 code cache (SPEC §16 cold start): kept in the per-user private cache
// directory, private files only, rejected caches replaced, and the CLI works the same whether
// the cache is there, broken, unusable or turned off.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeCacheDir, NO_CODE_CACHE_ENV } from "../src/cli/code-cache.js";
import { removeDir, runCli, tempDir, writeJson } from "./cli-helpers.js";

let dir: string;
let manifest: string;
let root: string;
let artifacts: string;

beforeAll(() => {
  dir = tempDir("scm-code-cache-");
  root = path.join(dir, "root");
  artifacts = path.join(dir, "artifacts");
  mkdirSync(root);
  manifest = writeJson(path.join(dir, "m.json"), {
    version: 2,
    programs: { node: { candidates: [process.execPath] } },
  });
});

afterAll(() => removeDir(dir));

/** Runs `doctor` with its caches under `cacheHome`; returns stdout (the run must exit 0). */
function doctor(cacheHome: string, extraEnv: Record<string, string> = {}): string {
  // A fixed artifact directory: doctor prints it, and it must not depend on the cache home.
  const args = ["doctor", "--manifest", manifest, "--root", root, "--artifact-dir", artifacts];
  const run = runCli(args, {
    env: { ...process.env, XDG_CACHE_HOME: cacheHome, ...extraEnv },
    cwd: dir,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** Where the code caches of a run with XDG_CACHE_HOME=`cacheHome` are. */
const cacheDirOf = (cacheHome: string): string =>
  path.join(cacheHome, "system-command-mcp", "code-cache");

const cacheFiles = (cacheHome: string): string[] => {
  const cacheDir = cacheDirOf(cacheHome);
  return existsSync(cacheDir) ? readdirSync(cacheDir).sort() : [];
};

/** The CLI bundle's cache file of the command that ran (the first in name order). */
const cliCacheFile = (cacheHome: string): string =>
  path.join(cacheDirOf(cacheHome), cacheFiles(cacheHome)[0]!);

describe.runIf(process.platform !== "win32")("code cache of the bundled CLI", () => {
  it("is written once into a private directory and used by the next run, same output", () => {
    const cacheHome = path.join(dir, "cache-a");
    const first = doctor(cacheHome);
    const files = cacheFiles(cacheHome);
    // one cache per bundle the command ran: the CLI, and the manifest validator it used
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^cli-doctor-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.bin$/);
    expect(files[1]).toMatch(/^validator-doctor-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.bin$/);
    const cacheDir = cacheDirOf(cacheHome);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    const file = path.join(cacheDir, files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = statSync(file).mtimeMs;
    expect(doctor(cacheHome)).toBe(first);
    // an accepted cache is not rewritten
    expect(statSync(file).mtimeMs).toBe(written);
    expect(cacheFiles(cacheHome)).toEqual(files);
  });

  it("replaces a cache V8 rejects, and the run is unaffected", () => {
    const cacheHome = path.join(dir, "cache-b");
    const expected = doctor(cacheHome);
    const file = cliCacheFile(cacheHome);
    const garbage = Buffer.alloc(4096, 0x5a);
    writeFileSync(file, garbage, { mode: 0o600 });
    expect(doctor(cacheHome)).toBe(expected);
    const replaced = readFileSync(file);
    expect(replaced.equals(garbage)).toBe(false);
    expect(replaced.length).toBeGreaterThan(garbage.length);
  });

  it("neither reads nor writes a cache directory others can access, and the run is unaffected", () => {
    const cacheHome = path.join(dir, "cache-c");
    const expected = doctor(cacheHome); // doctor reports paths under the cache home
    const cacheDir = cacheDirOf(cacheHome);
    rmSync(cacheDir, { recursive: true });
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o770);
    expect(doctor(cacheHome)).toBe(expected);
    expect(cacheFiles(cacheHome)).toEqual([]);
  });

  it("does not use a cache file others can write: it is replaced by a private one", () => {
    const cacheHome = path.join(dir, "cache-d");
    const expected = doctor(cacheHome);
    const file = cliCacheFile(cacheHome);
    // a good cache, but writable by others: were it read, V8 would accept it and keep it
    chmodSync(file, 0o666);
    expect(doctor(cacheHome)).toBe(expected);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("keeps the caches of the newest three builds of a command and removes older ones", () => {
    const cacheHome = path.join(dir, "cache-f");
    doctor(cacheHome);
    const cacheDir = cacheDirOf(cacheHome);
    const [current, validator] = cacheFiles(cacheHome);
    // caches of four earlier builds (oldest first), of another command, and a file not ours
    const stamp = (n: number) => current!.replace(/-[0-9a-f]{16}-/, `-${String(n).repeat(16)}-`);
    const earlier = [1, 2, 3, 4].map((n) => stamp(n));
    const past = Date.now() / 1000 - 3600;
    earlier.forEach((name, index) => {
      writeFileSync(path.join(cacheDir, name), "old", { mode: 0o600 });
      utimesSync(path.join(cacheDir, name), past + index, past + index);
    });
    const otherCommand = current!
      .replace(/^cli-doctor-/, "cli-init-")
      .replace(/-[0-9a-f]{16}-/, "-9999999999999999-");
    writeFileSync(path.join(cacheDir, otherCommand), "x", { mode: 0o600 });
    writeFileSync(path.join(cacheDir, "notes.txt"), "x", { mode: 0o600 });
    // a rejected cache makes the run write it again, which prunes
    writeFileSync(path.join(cacheDir, current!), Buffer.alloc(64, 1), { mode: 0o600 });
    doctor(cacheHome);
    expect(cacheFiles(cacheHome)).toEqual(
      [current!, validator!, earlier[3]!, earlier[2]!, otherCommand, "notes.txt"].sort(),
    );
  });

  it(`writes nothing with ${NO_CODE_CACHE_ENV}=1`, () => {
    const cacheHome = path.join(dir, "cache-e");
    doctor(cacheHome, { [NO_CODE_CACHE_ENV]: "1" });
    expect(cacheFiles(cacheHome)).toEqual([]);
  });
});

describe("code cache directory", () => {
  it("sits next to the default artifact store of each platform", () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/u")).toBe(
      "/x/cache/system-command-mcp/code-cache",
    );
    expect(codeCacheDir({}, "linux", "/home/u")).toBe(
      "/home/u/.cache/system-command-mcp/code-cache",
    );
    expect(codeCacheDir({}, "darwin", "/Users/u")).toBe(
      "/Users/u/Library/Caches/system-command-mcp/code-cache",
    );
    expect(
      codeCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u"),
    ).toBe("C:\\Users\\u\\AppData\\Local\\system-command-mcp\\code-cache");
  });
});
