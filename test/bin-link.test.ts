// The package as a user gets it (SPEC §13): `npm pack` of a clone that has no dist/ yet (prepack
// builds it), installed with `npm install -g <tarball> --prefix DIR`; the installed bin (npm's
// symlink) answers --version, runs exec and serves tools/list to the SDK client.

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneRepository } from "./helpers/clone.js";
import { REPO_ROOT, baseEnv, removeDir, tempDir } from "./helpers/server.js";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** Packing builds the clone (tsc, validator, bundle) on a shared machine: generous, bounded. */
const PACK_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 30_000;

let dir: string;
let clone: string;
let bin: string;

beforeAll(
  () => {
    dir = tempDir("scm-bin-");
    clone = cloneRepository(path.join(dir, "clone"));
    // The clone's build tools are the ones `npm ci` installed here: same lockfile, no download.
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(clone, "node_modules"), "dir");
    expect(existsSync(path.join(clone, "dist"))).toBe(false);
    execFileSync(NPM, ["pack", "--silent", "--pack-destination", dir], {
      cwd: clone,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: PACK_TIMEOUT_MS,
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
      { stdio: ["ignore", "pipe", "pipe"], timeout: PACK_TIMEOUT_MS },
    );
    bin = path.join(prefix, "bin", "system-command-mcp");
  },
  2 * PACK_TIMEOUT_MS + 60_000,
);

afterAll(() => removeDir(dir));

describe("npm pack of a clone, installed into a prefix", () => {
  it("prepack built dist/ into the clone", () => {
    expect(existsSync(path.join(clone, "dist", "cli", "main.js"))).toBe(true);
  });

  it("installs a bin symlink that answers --version and runs exec", () => {
    expect(lstatSync(bin).isSymbolicLink()).toBe(true);
    const version = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: RUN_TIMEOUT_MS });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const exec = spawnSync(bin, ["exec", "--root", dir, "node", "-e", "console.log(40 + 2)"], {
      encoding: "utf8",
      timeout: RUN_TIMEOUT_MS,
    });
    expect(exec.status).toBe(0);
    expect(JSON.parse(exec.stdout).stdout.text).toBe("42\n");
  });

  it("serves tools/list to the SDK client through the installed bin", async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ["serve", "--root", dir],
      env: baseEnv(),
      stderr: "pipe",
    });
    const client = new Client({ name: "scm-bin-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain("system_exec");
      expect(names).toContain("system_environment");
      expect(names).toContain("system_output");
    } finally {
      await client.close();
    }
  });
});
