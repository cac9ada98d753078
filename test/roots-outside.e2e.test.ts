// A cwd outside every Root (SPEC §11) is refused by the Root check itself, with its own code and
// message — not later by the chdir pin (src/roots/cwd-pin.ts), whose message says the directory
// "was replaced while it was checked". The tests match the whole text, so a Root check that let
// such a cwd through (issue 24 mutant, roots.ts) fails them even though the pin still refuses it.

import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  errorText,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

let dir: string;
let one: TestServer;
let two: TestServer;
let rootA: string;
let rootB: string;

beforeAll(async () => {
  dir = realpathSync(tempDir());
  rootA = path.join(dir, "a");
  rootB = path.join(dir, "b");
  mkdirSync(path.join(dir, "outside"));
  mkdirSync(rootA);
  mkdirSync(rootB);
  symlinkSync(path.join(dir, "outside"), path.join(rootA, "escape"));
  const base = ["--manifest", writeManifest(dir), "--artifact-dir", path.join(dir, "artifacts")];
  one = await startServer({ args: [...base, "--root", rootA] });
  two = await startServer({ args: [...base, "--root", rootA, "--root", rootB] });
});

afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  removeDir(dir);
});

const exec = (server: TestServer, cwd: string) =>
  server.call("system_exec", { program: "true", cwd });

const outside = (requested: string, roots: string[]) =>
  `CWD_NOT_ALLOWED: cwd ${JSON.stringify(requested)} resolves outside every Root ` +
  `(allowed: ${roots.join(", ")})`;

describe("a cwd outside every Root", () => {
  it("one Root: .., an absolute path and a symlink out are refused by the Root check", async () => {
    const outsideDir = path.join(dir, "outside");
    for (const cwd of ["..", outsideDir, "escape", path.join(rootA, "escape")]) {
      const result = await exec(one, cwd);
      expect(result.isError, cwd).toBe(true);
      expect(errorText(result), cwd).toBe(outside(cwd, [rootA]));
    }
  });

  it("two Roots: an absolute cwd in neither names both Roots", async () => {
    const outsideDir = path.join(dir, "outside");
    for (const cwd of [outsideDir, path.join(rootA, "escape"), dir]) {
      const result = await exec(two, cwd);
      expect(result.isError, cwd).toBe(true);
      expect(errorText(result), cwd).toBe(outside(cwd, [rootA, rootB]));
    }
  });

  it("a cwd inside a Root still runs", async () => {
    expect((await exec(two, rootB)).isError).toBeFalsy();
    expect((await exec(one, ".")).isError).toBeFalsy();
  });
});
