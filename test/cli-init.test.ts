// `init`: a version 2 manifest that runs as written, the snippets, and each refusal (SPEC §13).

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { validateManifest } from "../src/manifest/validate.js";
import {
  CLI_ENTRY,
  directoryOnPath,
  errorCode,
  removeDir,
  runCli,
  tempDir,
  writeExecutable,
} from "./cli-helpers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function newDir(): string {
  const dir = tempDir("scm-init-");
  dirs.push(dir);
  return dir;
}

/** The Codex (TOML) and DSH (YAML) snippets init prints, parsed. */
function parseSnippets(stdout: string): { codex: any; dsh: any } {
  const dshStart = stdout.indexOf("# system-command-mcp for DSH");
  expect(dshStart).toBeGreaterThan(0);
  return {
    codex: parseToml(stdout.slice(0, dshStart)),
    dsh: parseYaml(stdout.slice(dshStart)),
  };
}

/** The exec result of a program through a manifest. */
function execThrough(manifest: string, root: string, program: string, args: string[]): any {
  const run = runCli(["exec", "--manifest", manifest, "--root", root, program, ...args]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout);
}

describe("init on this machine's PATH", () => {
  it("writes a v2 manifest that doctor accepts and exec runs npm and git with", () => {
    const dir = newDir();
    const run = runCli(["init", "--yes"], { cwd: dir });
    expect(run.status).toBe(0);
    const file = path.join(dir, "system-command-manifest.json");
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    validateManifest(manifest);
    expect(manifest.version).toBe(2);
    // §10: init lets the JS/Python runtimes and package managers run in the background.
    expect(manifest.programs.npm).toEqual({
      candidates: ["npm"],
      required: false,
      policy: { allowBackground: true },
    });
    expect(manifest.programs.git).toEqual({ candidates: ["git"], required: false });
    // npm is a `#!/usr/bin/env node` script: node's directory must be on the written PATH.
    expect(manifest.searchPath).toContain(directoryOnPath("node"));
    expect(manifest.searchPath).toContain(directoryOnPath("npm"));
    expect(manifest.probes?.git).toEqual({ args: ["--version"] });
    // §23: secrets kept from children; no colour codes, pager or credential prompt.
    expect(manifest.environment).toEqual({
      removeMatching: ["*_TOKEN", "*_SECRET*", "*PASSWORD*", "AWS_*", "GITHUB_*"],
      set: { NO_COLOR: "1", PAGER: "cat", GIT_PAGER: "cat", GIT_TERMINAL_PROMPT: "0" },
    });
    expect(run.stderr).toContain(`wrote ${file}`);

    const { codex, dsh } = parseSnippets(run.stdout);
    const server = codex.mcp_servers["system-command"];
    expect(server.command).toBe(process.execPath);
    expect(server.args).toEqual([CLI_ENTRY, "serve", "--manifest", file, "--root", dir]);
    expect(dsh[0].insert[0].config.args).toEqual(server.args);

    const doctor = runCli(["doctor", "--manifest", file, "--root", dir, "--json"]);
    expect(doctor.status).toBe(0);
    const report = JSON.parse(doctor.stdout);
    expect(report.ok).toBe(true);
    expect(report.programs.find((p: any) => p.name === "npm").status).toBe("registered");

    const npm = execThrough(file, dir, "npm", ["--version"]);
    expect(npm.exitCode).toBe(0);
    expect(npm.stdout.text).toMatch(/^\d+\.\d+\.\d+/);
    const git = execThrough(file, dir, "git", ["--version"]);
    expect(git.exitCode).toBe(0);
    expect(git.stdout.text).toMatch(/^git version /);
  });

  it("takes the path from the argument, else --manifest, and uses the given --root in snippets", () => {
    const dir = newDir();
    const root = newDir();
    const viaFlag = runCli(["init", "--yes", "--manifest", "flag.json", "--root", root], {
      cwd: dir,
    });
    expect(viaFlag.status).toBe(0);
    expect(existsSync(path.join(dir, "flag.json"))).toBe(true);
    expect(parseSnippets(viaFlag.stdout).codex.mcp_servers["system-command"].args).toContain(root);
    const viaArgument = runCli(["init", "--yes", "arg.json", "--manifest", "flag2.json"], {
      cwd: dir,
    });
    expect(viaArgument.status).toBe(0);
    expect(existsSync(path.join(dir, "arg.json"))).toBe(true);
    expect(existsSync(path.join(dir, "flag2.json"))).toBe(false);
  });
});

describe("init into new places (SPEC §13)", () => {
  it("creates missing parent directories, 0700 under the home directory; the file is 0600", () => {
    const home = newDir();
    // A literal `~/…`, as a quoted argument reaches the program: the home directory, not <cwd>/~.
    const run = runCli(["init", "--yes", "~/.config/system-command-mcp/manifest.json"], {
      cwd: home,
      env: { ...process.env, HOME: home },
    });
    expect(run.stderr).not.toMatch(/INVALID_OPTION|ENOENT/);
    expect(run.status).toBe(0);
    const file = path.join(home, ".config/system-command-mcp/manifest.json");
    expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(2);
    expect(existsSync(path.join(home, "~"))).toBe(false);
    if (process.platform !== "win32") {
      expect(statSync(path.join(home, ".config")).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(home, ".config/system-command-mcp")).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });

  it("keeps the mode of an existing parent and creates others outside home too", () => {
    const home = newDir();
    const elsewhere = newDir();
    const existing = path.join(home, "existing");
    mkdirSync(existing, { mode: 0o755 });
    const inside = runCli(["init", "--yes", path.join(existing, "m.json"), "--root", home], {
      env: { ...process.env, HOME: home },
    });
    expect(inside.status).toBe(0);
    if (process.platform !== "win32") expect(statSync(existing).mode & 0o777).toBe(0o755);
    const outside = path.join(elsewhere, "a", "b", "m.json");
    const run = runCli(["init", "--yes", outside, "--root", home], {
      env: { ...process.env, HOME: home },
    });
    expect(run.status).toBe(0);
    expect(existsSync(outside)).toBe(true);
  });

  it("without --root the snippets use the current directory, with a warning", () => {
    const dir = newDir();
    const run = runCli(["init", "--yes"], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning: no --root given.*current directory/);
    const args = parseSnippets(run.stdout).codex.mcp_servers["system-command"].args;
    expect(args.slice(-2)).toEqual(["--root", dir]);
  });

  it("carries every given --root (~ expanded) into both snippets and warns about a missing one", () => {
    const home = newDir();
    mkdirSync(path.join(home, "src"));
    const missing = path.join(home, "not-there");
    const run = runCli(["init", "--yes", "m.json", "--root", "~/src", "--root", missing], {
      cwd: home,
      env: { ...process.env, HOME: home },
    });
    expect(run.status).toBe(0);
    const { codex, dsh } = parseSnippets(run.stdout);
    const args = codex.mcp_servers["system-command"].args;
    expect(args.slice(-4)).toEqual(["--root", path.join(home, "src"), "--root", missing]);
    expect(dsh[0].insert[0].config.args).toEqual(args);
    expect(run.stderr).toContain(`warning: --root ${missing} does not exist`);
    expect(run.stderr).not.toContain("no --root given");
  });
});

describe("init with a PATH of scripts and interpreters", () => {
  it("puts the directories of programs and their interpreters on searchPath, in PATH order", () => {
    const dir = newDir();
    const empty = path.join(dir, "empty");
    const interpreters = path.join(dir, "interpreters");
    const programs = path.join(dir, "programs");
    const offPath = path.join(dir, "off-path");
    // `env` finds `fake-interp` on the child's PATH; `git` names its interpreter absolutely.
    writeExecutable(path.join(interpreters, "fake-interp"), '#!/bin/sh\necho "interp ran"\n');
    writeExecutable(path.join(programs, "npm"), "#!/usr/bin/env fake-interp\n");
    writeExecutable(path.join(offPath, "run-git"), '#!/bin/sh\necho "git via run-git"\n');
    writeExecutable(path.join(programs, "git"), `#!${path.join(offPath, "run-git")}\n`);
    writeFileSync(path.join(dir, "placeholder"), "");
    const env = { ...process.env, PATH: [empty, interpreters, programs].join(path.delimiter) };
    const file = path.join(dir, "m.json");
    const run = runCli(["init", "--yes", file, "--root", dir], { env, cwd: dir });
    expect(run.status).toBe(0);
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(manifest.programs)).toEqual(["git", "npm"]);
    // run-git is itself a `#!/bin/sh` script: the chain is followed to /bin (not on PATH: last).
    expect(manifest.searchPath).toEqual([interpreters, programs, offPath, "/bin"]);
    expect(run.stderr).toMatch(/not found on PATH, not registered: node, npx, pnpm/);

    const npm = execThrough(file, dir, "npm", []);
    expect(npm.stdout.text).toBe("interp ran\n");
    const git = execThrough(file, dir, "git", []);
    expect(git.stdout.text).toBe("git via run-git\n");
  });

  it("fails with NO_PROGRAMS_REGISTERED when none of the set is on PATH", () => {
    const dir = newDir();
    const run = runCli(["init", "--yes"], { env: { ...process.env, PATH: dir }, cwd: dir });
    expect(run.status).toBe(1);
    expect(errorCode(run.stderr)).toBe("NO_PROGRAMS_REGISTERED");
    expect(existsSync(path.join(dir, "system-command-manifest.json"))).toBe(false);
  });
});

describe("init refusals", () => {
  it("never overwrites without --force (MANIFEST_EXISTS, exit 1)", () => {
    const dir = newDir();
    const file = path.join(dir, "system-command-manifest.json");
    writeFileSync(file, "keep me");
    const refused = runCli(["init", "--yes"], { cwd: dir });
    expect(refused.status).toBe(1);
    expect(errorCode(refused.stderr)).toBe("MANIFEST_EXISTS");
    expect(refused.stdout).toBe("");
    expect(readFileSync(file, "utf8")).toBe("keep me");
    const forced = runCli(["init", "--yes", "--force"], { cwd: dir });
    expect(forced.status).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(2);
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("needs a terminal to ask questions (TTY_REQUIRED, exit 2)", () => {
    const dir = newDir();
    const run = runCli(["init"], { cwd: dir });
    expect(run.status).toBe(2);
    expect(errorCode(run.stderr)).toBe("TTY_REQUIRED");
    expect(run.stderr).toContain("--yes");
    expect(existsSync(path.join(dir, "system-command-manifest.json"))).toBe(false);
  });
});

// `script` gives init a real terminal on stdin; the answers are typed into it.
const hasScript = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!hasScript || process.platform !== "linux")("init on a terminal", () => {
  it("asks per program whether to register it and whether it is required", () => {
    const dir = newDir();
    const bin = path.join(dir, "bin");
    writeExecutable(path.join(bin, "git"), "#!/bin/sh\n");
    writeExecutable(path.join(bin, "rg"), "#!/bin/sh\n");
    const file = path.join(dir, "m.json");
    // Only git and rg are on this PATH; node runs by its absolute path.
    const command = ["/usr/bin/env", `PATH=${bin}`, process.execPath, CLI_ENTRY, "init", file]
      .map((word) => `'${word}'`)
      .join(" ");
    // git: register, required; ripgrep: not registered.
    const run = spawnSync("script", ["-qec", command, "/dev/null"], {
      input: "y\ny\nn\n",
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    expect(manifest.programs.git).toEqual({ candidates: ["git"], required: true });
    expect(manifest.programs.ripgrep).toBeUndefined();
  });
});
