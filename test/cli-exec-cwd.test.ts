// Where `exec` runs (SPEC §13, Revision 3): the shell's directory when it lies inside a Root,
// else the only Root, else CWD_NOT_ALLOWED; `--cwd` is relative to the shell's directory.

import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, removeDir, runCli, tempDir } from "./cli-helpers.js";

let dir: string;
let env: NodeJS.ProcessEnv;
let work: string;
let project: string;
let other: string;

/** exec printing its working directory, from the shell directory `from`. */
function pwdFrom(from: string, flags: string[]) {
  const run = runCli(["exec", ...flags, "node", "-e", "process.stdout.write(process.cwd())"], {
    env,
    cwd: from,
  });
  return { ...run, ran: run.status === 0 ? JSON.parse(run.stdout).stdout.text : undefined };
}

beforeAll(() => {
  dir = tempDir("scm-exec-cwd-");
  env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(dir, "cache"),
    XDG_STATE_HOME: path.join(dir, "state"),
  };
  work = path.join(dir, "w");
  project = path.join(work, "proj");
  other = path.join(dir, "other");
  mkdirSync(path.join(project, "src"), { recursive: true });
  mkdirSync(other);
});
afterAll(() => removeDir(dir));

describe("exec working directory", () => {
  it("is the shell's directory when it lies inside the Root (not the Root itself)", () => {
    const run = pwdFrom(project, ["--root", work]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.ran).toBe(project);
    expect(JSON.parse(run.stdout).cwd).toBe(project);
  });

  it("follows a symlinked shell directory to the real path inside the Root", () => {
    const link = path.join(dir, "link-to-proj");
    symlinkSync(project, link);
    const run = pwdFrom(link, ["--root", work]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.ran).toBe(project);
  });

  it("is the only Root when the shell is outside it", () => {
    const run = pwdFrom(other, ["--root", work]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.ran).toBe(work);
  });

  it("is CWD_NOT_ALLOWED (125) when the shell is outside several Roots, naming them", () => {
    const sibling = path.join(dir, "sibling");
    mkdirSync(sibling);
    const refused = pwdFrom(other, ["--root", project, "--root", sibling]);
    expect(refused.status).toBe(125);
    expect(errorCode(refused.stderr)).toBe("CWD_NOT_ALLOWED");
    expect(refused.stderr).toContain(project);
    expect(refused.stderr).toContain(sibling);
    expect(refused.stderr).toContain("--cwd");
    expect(refused.stdout).toBe("");
  });

  it("takes the shell's directory among several Roots when it lies inside one", () => {
    const sibling = path.join(dir, "sibling2");
    mkdirSync(sibling);
    const run = pwdFrom(path.join(project, "src"), ["--root", project, "--root", sibling]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.ran).toBe(path.join(project, "src"));
  });

  it("resolves a relative --cwd against the shell's directory, not the Root", () => {
    const run = pwdFrom(project, ["--root", work, "--cwd", "src"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.ran).toBe(path.join(project, "src"));
    const up = pwdFrom(path.join(project, "src"), ["--root", work, "--cwd", ".."]);
    expect(up.ran).toBe(project);
  });

  it("still refuses a --cwd that resolves outside every Root", () => {
    const run = pwdFrom(project, ["--root", work, "--cwd", "../.."]);
    expect(run.status).toBe(125);
    expect(errorCode(run.stderr)).toBe("CWD_NOT_ALLOWED");
  });

  it("without --root, the Root is the shell's directory and runs there", () => {
    const run = pwdFrom(project, []);
    expect(run.status, run.stderr).toBe(0);
    expect(run.ran).toBe(project);
  });
});
