// The bounded scan for git directories under the writable Roots (SPEC §20.1 item 1): every
// `.git` directory and file found (depth GIT_SCAN_MAX_DEPTH, GIT_SCAN_MAX_DIRS directories a Root,
// never inside node_modules), the gitdirs they point to, submodules' gitdirs under `.git/modules`
// and worktrees' gitdirs — their hooks, info, config and pointer files kept read-only, and the
// directories down to them pinned, so that nothing git later runs outside the sandbox can be
// planted. Runs for every confined execution: readdir only, no stat per entry.

import { mkdirSync, readdirSync, readFileSync, realpathSync, type Dirent } from "node:fs";
import path from "node:path";
import { withoutStackTraces } from "../without-stack-traces.js";
import {
  GIT_CREATED_DIRS,
  GIT_READ_ONLY_ENTRIES,
  GIT_SCAN_MAX_DEPTH,
  GIT_SCAN_MAX_DIRS,
  GIT_SCAN_SKIPPED,
  GIT_WORKTREE_ENTRIES,
} from "./constants.js";
import { readGitConfig, resolveConfigPath } from "./git-config.js";
import type { ProtectionSet } from "./protection.js";

/** What the scan is given. */
export interface GitScanInput {
  /** The writable Roots (real paths) to scan. */
  roots: readonly string[];
  /** The user's home directory (`~/` in config values). */
  home: string;
  /** The user's global git config files (existing or not). */
  globalConfigs: readonly string[];
}

/** Mode of the empty hooks/ and info/ created on the host. */
const CREATED_DIR_MODE = 0o755;
/** The file a worktree's gitdir has and a repository's own does not. */
const COMMONDIR = "commondir";
/** How a `.git` file names its gitdir. */
const GITDIR_LINE = /^gitdir:\s*(.+?)\s*$/m;

function list(dir: string): Dirent[] | undefined {
  try {
    return withoutStackTraces(() => readdirSync(dir, { withFileTypes: true }));
  } catch {
    return undefined;
  }
}

function realOrUndefined(target: string): string | undefined {
  try {
    return withoutStackTraces(() => realpathSync.native(target));
  } catch {
    return undefined;
  }
}

function readSmall(file: string): string | undefined {
  try {
    return withoutStackTraces(() => readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** One execution's scan. */
class GitScan {
  private readonly visited = new Set<string>();
  private budget = 0;
  private readonly globalHooksPaths: string[] = [];

  constructor(
    private readonly protection: ProtectionSet,
    private readonly input: GitScanInput,
  ) {}

  run(): void {
    for (const file of this.input.globalConfigs) {
      this.protection.keepReadOnlyIfExists(file);
      const facts = readGitConfig(file, this.input.home);
      for (const included of facts.includes) this.protection.keepReadOnlyIfExists(included);
      if (facts.hooksPath !== undefined) this.globalHooksPaths.push(facts.hooksPath);
    }
    for (const root of this.input.roots) this.scanRoot(root);
  }

  /** Breadth-first over the Root's directories, within depth and budget. */
  private scanRoot(root: string): void {
    this.budget = GIT_SCAN_MAX_DIRS;
    const queue: Array<[string, number]> = [[root, 0]];
    for (let next = 0; next < queue.length && this.budget > 0; next++) {
      const [dir, depth] = queue[next]!;
      this.budget--;
      const entries = list(dir);
      if (entries === undefined) continue;
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.name === ".git") {
          if (entry.isDirectory()) this.visitGitDir(full, dir);
          else if (entry.isFile()) this.visitGitFile(full, dir);
          else if (entry.isSymbolicLink()) this.visitGitLink(full, dir);
        } else if (
          entry.isDirectory() &&
          depth < GIT_SCAN_MAX_DEPTH &&
          !GIT_SCAN_SKIPPED.includes(entry.name)
        ) {
          queue.push([full, depth + 1]);
        }
      }
    }
  }

  /** A `.git` file (worktree, submodule): itself read-only, then the gitdir it names. */
  private visitGitFile(file: string, workTree: string): void {
    this.protection.keepReadOnly(file);
    const named = GITDIR_LINE.exec(readSmall(file) ?? "")?.[1];
    if (named === undefined) return;
    const gitDir = realOrUndefined(path.resolve(workTree, named));
    if (gitDir !== undefined) this.visitGitDir(gitDir, workTree);
  }

  /**
   * A `.git` that is a symlink: the directory or file it leads to is protected; the link itself
   * cannot be (a bind lands on its target; docs/confinement.md says so). A dangling one is skipped.
   */
  private visitGitLink(link: string, workTree: string): void {
    const target = realOrUndefined(link);
    if (target === undefined) return;
    const entries = list(target);
    if (entries !== undefined) this.visitGitDir(target, workTree);
    else this.visitGitFile(target, workTree);
  }

  /** Keeps one entry of a git directory read-only: a symlink through its existing target only. */
  private keepEntry(dir: string, entry: Dirent): void {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) this.protection.keepReadOnlyIfExists(full);
    else this.protection.keepReadOnly(full);
  }

  /** One git directory: what git runs or reads from it stays read-only. */
  private visitGitDir(gitDir: string, workTree: string | undefined): void {
    if (this.visited.has(gitDir)) return;
    this.visited.add(gitDir);
    const entries = list(gitDir);
    if (entries === undefined) return;
    const names = new Map(entries.map((entry) => [entry.name, entry]));
    const worktreeGitDir = names.has(COMMONDIR);
    if (this.protection.pinDownTo(gitDir)) {
      if (!worktreeGitDir) this.createMissing(gitDir, names);
      const kept = worktreeGitDir
        ? [...GIT_READ_ONLY_ENTRIES, ...GIT_WORKTREE_ENTRIES]
        : GIT_READ_ONLY_ENTRIES;
      for (const name of kept) {
        const entry = names.get(name);
        if (entry !== undefined) this.keepEntry(gitDir, entry);
      }
      if (names.get("worktrees")?.isDirectory())
        this.visitWorktrees(path.join(gitDir, "worktrees"));
      if (names.get("modules")?.isDirectory()) this.visitModules(path.join(gitDir, "modules"));
    }
    this.visitConfig(gitDir, workTree, names);
    if (worktreeGitDir) {
      const common = readSmall(path.join(gitDir, COMMONDIR))?.trim();
      const real = common ? realOrUndefined(path.resolve(gitDir, common)) : undefined;
      if (real !== undefined) this.visitGitDir(real, undefined);
    }
  }

  /** hooks/ and info/ made on the host when missing, so that they can be covered. */
  private createMissing(gitDir: string, names: Map<string, Dirent>): void {
    for (const name of GIT_CREATED_DIRS) {
      if (names.has(name)) continue;
      try {
        mkdirSync(path.join(gitDir, name), { mode: CREATED_DIR_MODE });
        names.set(name, { name, isDirectory: () => true, isSymbolicLink: () => false } as Dirent);
      } catch {
        // not ours to create (e.g. another owner's repository): left as it is
      }
    }
  }

  /** `worktrees/<name>/`: each is a worktree's gitdir. */
  private visitWorktrees(dir: string): void {
    for (const entry of list(dir) ?? []) {
      if (entry.isDirectory()) this.visitGitDir(path.join(dir, entry.name), undefined);
    }
  }

  /** `modules/…`: submodules' gitdirs (a name may hold slashes), found by their HEAD. */
  private visitModules(dir: string): void {
    const queue = [dir];
    for (let next = 0; next < queue.length && this.budget > 0; next++) {
      this.budget--;
      for (const entry of list(queue[next]!) ?? []) {
        if (!entry.isDirectory()) continue;
        const child = path.join(queue[next]!, entry.name);
        if ((list(child) ?? []).some((inner) => inner.name === "HEAD")) {
          this.visitGitDir(child, undefined);
        } else {
          queue.push(child);
        }
      }
    }
  }

  /** include.path files and the core.hooksPath directory of this repository's config. */
  private visitConfig(gitDir: string, workTree: string | undefined, names: Map<string, Dirent>) {
    const hooksPaths = [...this.globalHooksPaths];
    for (const name of ["config", "config.worktree"]) {
      if (!names.has(name)) continue;
      const facts = readGitConfig(path.join(gitDir, name), this.input.home);
      for (const included of facts.includes) this.protection.keepReadOnlyIfExists(included);
      if (facts.hooksPath !== undefined) hooksPaths.push(facts.hooksPath);
    }
    const base = workTree ?? gitDir;
    for (const value of hooksPaths) {
      const target = resolveConfigPath(value, base, this.input.home);
      if (!this.protection.isWritable(target)) continue;
      try {
        mkdirSync(target, { recursive: true, mode: CREATED_DIR_MODE });
      } catch {
        // cannot be made: nothing to cover
      }
      this.protection.keepReadOnlyIfExists(target);
    }
  }
}

/** Scans the writable Roots and adds what must be pinned and kept read-only to `protection`. */
export function scanGitDirectories(protection: ProtectionSet, input: GitScanInput): void {
  new GitScan(protection, input).run();
}
