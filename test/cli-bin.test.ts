// The built entry is executable (SPEC §13): it runs when called directly and through a plain
// symlink that npm did not make (the install guide's ~/.local/bin link).

import { spawnSync } from "node:child_process";
import { statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY, CLI_TIMEOUT_MS, tempDir } from "./cli-helpers.js";
import { removeDir } from "./helpers/server.js";
import { PACKAGE_JSON } from "../src/package-root.js";

let dir: string;
beforeAll(() => {
  dir = tempDir("scm-bin-direct-");
});
afterAll(() => removeDir(dir));

/** Runs a file as a program (no `node` in front): the kernel reads its `#!` line. */
function runFile(file: string, args: string[]) {
  return spawnSync(file, args, { encoding: "utf8", timeout: CLI_TIMEOUT_MS });
}

describe.skipIf(process.platform === "win32")("the built bin", () => {
  it("has the execute bits after the build", () => {
    expect(statSync(CLI_ENTRY).mode & 0o111).toBe(0o111);
  });

  it("runs when called directly", () => {
    const run = runFile(CLI_ENTRY, ["--version"]);
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(PACKAGE_JSON.version);
  });

  it("runs through a plain symlink", () => {
    const link = path.join(dir, "system-command-mcp");
    symlinkSync(CLI_ENTRY, link);
    const run = runFile(link, ["exec", "--root", dir, "node", "-e", "console.log(6 * 7)"]);
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).stdout.text).toBe("42\n");
  });
});
