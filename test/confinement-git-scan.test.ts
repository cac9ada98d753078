// The git-directory scan (SPEC §20.1 item 1) on real directories: what it pins and keeps
// read-only, its bounds (depth 6, node_modules skipped), the hooks/ and info/ it creates, and the
// config settings it follows (include.path, core.hooksPath, the global config).

import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GIT_SCAN_MAX_DEPTH } from "../src/confinement/constants.js";
import { readGitConfig } from "../src/confinement/git-config.js";
import { scanGitDirectories } from "../src/confinement/git-scan.js";
import { ProtectionSet } from "../src/confinement/protection.js";
import { chainBelow, outermostFirst } from "../src/confinement/within-path.js";
import { removeDir, tempDir } from "./helpers/server.js";

/** A minimal repository's git directory at `dir/.git`. */
function repo(dir: string, config = ""): string {
  const git = path.join(dir, ".git");
  mkdirSync(path.join(git, "objects"), { recursive: true });
  writeFileSync(path.join(git, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(path.join(git, "config"), `[core]\n\tbare = false\n${config}`);
  return git;
}

describe("git-directory scan", () => {
  let root: string;
  let home: string;

  beforeEach(() => {
    root = tempDir("scm-git-scan-");
    home = tempDir("scm-git-home-");
  });

  afterEach(() => {
    removeDir(root);
    removeDir(home);
  });

  function scan(writable = [root]) {
    const protection = new ProtectionSet(writable);
    scanGitDirectories(protection, {
      roots: [root],
      home,
      globalConfigs: [path.join(home, ".gitconfig")],
    });
    return protection.result();
  }

  it("a nested repository: its parents and .git pinned outermost first, hooks/info/config read-only, hooks/info created", () => {
    const git = repo(path.join(root, "a/b"));
    const result = scan();
    expect(result.pinned).toEqual([path.join(root, "a"), path.join(root, "a/b"), git]);
    expect(result.readOnly).toEqual(
      ["config", "hooks", "info"].map((name) => path.join(git, name)).sort(),
    );
    expect(existsSync(path.join(git, "hooks"))).toBe(true);
    expect(existsSync(path.join(git, "info"))).toBe(true);
  });

  it("looks 6 levels deep and never into node_modules", () => {
    let deep = root;
    for (let i = 0; i < GIT_SCAN_MAX_DEPTH; i++) deep = path.join(deep, `d${i}`);
    const found = repo(deep);
    const tooDeep = repo(path.join(deep, "deeper"));
    const skipped = repo(path.join(root, "node_modules/pkg"));
    const result = scan();
    expect(result.pinned).toContain(found);
    expect(result.pinned).not.toContain(tooDeep);
    expect(result.pinned).not.toContain(skipped);
  });

  it("follows include.path and core.hooksPath inside a writable place, and the global config's", () => {
    writeFileSync(path.join(root, "extra.cfg"), "[user]\n\tname = x\n");
    const git = repo(
      root,
      '[include]\n\tpath = "../extra.cfg" ; a comment\n[core]\n\thooksPath = .husky\n',
    );
    writeFileSync(path.join(home, ".gitconfig"), "[core]\n\thooksPath = tools/hooks\n");
    const result = scan();
    expect(result.readOnly).toContain(path.join(root, "extra.cfg"));
    expect(result.readOnly).toContain(path.join(root, ".husky"));
    expect(result.readOnly).toContain(path.join(root, "tools/hooks"));
    expect(result.pinned).toContain(path.join(root, "tools"));
    expect(result.pinned).toContain(git);
    // Outside every writable place nothing is needed: the global config is read-only already.
    expect(result.readOnly).not.toContain(path.join(home, ".gitconfig"));
  });

  it("a .git file: itself read-only, its gitdir under .git/modules protected; submodules found by HEAD", () => {
    const top = repo(root);
    const module = path.join(top, "modules/libs/one");
    mkdirSync(path.join(module, "hooks"), { recursive: true });
    writeFileSync(path.join(module, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(path.join(module, "config"), "");
    mkdirSync(path.join(root, "libs/one"), { recursive: true });
    writeFileSync(path.join(root, "libs/one/.git"), "gitdir: ../../.git/modules/libs/one\n");
    const result = scan();
    expect(result.readOnly).toContain(path.join(root, "libs/one/.git"));
    expect(result.readOnly).toContain(path.join(module, "hooks"));
    expect(result.readOnly).toContain(path.join(module, "config"));
    expect(result.pinned).toEqual(
      expect.arrayContaining([path.join(root, "libs"), path.join(root, "libs/one"), module]),
    );
  });

  it("nothing in a Root that is not writable", () => {
    repo(path.join(root, "a"));
    expect(scan([home])).toEqual({ pinned: [], readOnly: [] });
  });
});

describe("git config reading and path chains", () => {
  it("reads includeIf paths, quoted values and the last hooksPath; ~/ is the home", () => {
    const dir = tempDir("scm-git-config-");
    try {
      const file = path.join(dir, "config");
      writeFileSync(
        file,
        '[includeIf "gitdir:~/work/"]\n  path = ~/work.cfg\n[CORE]\n  hooksPath = a\n  HooksPath = "b # c"\n',
      );
      expect(readGitConfig(file, "/home/u")).toEqual({
        includes: ["/home/u/work.cfg"],
        hooksPath: "b # c",
      });
      expect(readGitConfig(path.join(dir, "missing"), "/home/u")).toEqual({ includes: [] });
    } finally {
      removeDir(dir);
    }
  });

  it("chainBelow and outermostFirst", () => {
    expect(chainBelow("/r", "/r/a/b")).toEqual(["/r/a", "/r/a/b"]);
    expect(chainBelow("/r", "/r")).toEqual([]);
    expect(chainBelow("/r", "/s/a")).toEqual([]);
    expect(chainBelow("/", "/var/tmp")).toEqual(["/var", "/var/tmp"]);
    expect(outermostFirst(["/a/b/c", "/a", "/a/b", "/a"])).toEqual(["/a", "/a/b", "/a/b/c"]);
  });
});

describe("git-directory scan and symlinks", () => {
  it("a dangling hooks link or .git link is skipped; a .git link to a repository protects its target", () => {
    const root = tempDir("scm-git-links-");
    try {
      const git = repo(path.join(root, "real"));
      symlinkSync(path.join(root, "nowhere"), path.join(git, "info"));
      mkdirSync(path.join(root, "linked"));
      symlinkSync(git, path.join(root, "linked/.git"));
      const protection = new ProtectionSet([root]);
      scanGitDirectories(protection, { roots: [root], home: root, globalConfigs: [] });
      const result = protection.result();
      expect(result.readOnly).toContain(path.join(git, "hooks"));
      expect(result.readOnly).not.toContain(path.join(git, "info"));
      expect(result.readOnly).not.toContain(path.join(root, "linked/.git"));
    } finally {
      removeDir(root);
    }
  });
});
