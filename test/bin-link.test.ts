// The installed bin works through npm's symlink (SPEC §13): npm pack, install into a temporary
// prefix, run the linked command.

import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, removeDir, tempDir } from "./helpers/server.js";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
let dir: string;
let bin: string;

beforeAll(() => {
  dir = tempDir("scm-bin-");
  execFileSync(NPM, ["pack", "--silent", "--pack-destination", dir], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_ignore_scripts: "true" },
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"))!;
  const prefix = path.join(dir, "prefix");
  execFileSync(
    NPM,
    [
      "install",
      "--global",
      "--prefix",
      prefix,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      path.join(dir, tarball),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  bin = path.join(prefix, "bin", "system-command-mcp");
}, 180_000);

afterAll(() => removeDir(dir));

describe("installed bin", () => {
  it("is a symlink that runs: --version and exec", () => {
    expect(lstatSync(bin).isSymbolicLink()).toBe(true);
    const version = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000 });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const exec = spawnSync(bin, ["exec", "--root", dir, "node", "-e", "console.log(40 + 2)"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(exec.status).toBe(0);
    expect(JSON.parse(exec.stdout).stdout.text).toBe("42\n");
  });
});
