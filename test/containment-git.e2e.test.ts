// SPEC §20.1 item 1 (git) as attacks through the real server and real bubblewrap, as root and as
// uid 65534, in a workspace outside /tmp: a confined workspace-write program must not be able to
// plant anything git later runs outside the sandbox — not by renaming `.git` away and recreating
// it, not in a submodule's or a nested repository's gitdir, not through a renamed parent, a
// rewritten core.hooksPath directory, an include.path file, a worktree's pointer files or a
// missing hooks/ — while ordinary commits still work.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shProgram, startContained, type ContainedServer } from "./helpers/containment.js";
import {
  attackDir,
  giveTo,
  identities,
  type AttackDir,
  type Identity,
} from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";

/** A hook that does nothing (the repository's own, under .husky). */
const HARMLESS_HOOK = "#!/bin/sh\nexit 0\n";
/** What the include.path file holds before the attack. */
const INCLUDED = "[user]\n\tname = Included\n";
/** What an attacker would plant. */
const PLANTED = "#!/bin/sh\ntouch /var/tmp/pwned\n";

/** Runs git on the host as the identity (the test's setup), failing loudly. */
function git(attack: AttackDir, cwd: string, ...args: string[]): void {
  const env = { ...attack.env(), GIT_CONFIG_NOSYSTEM: "1" };
  const run = attack.run("git", args, { cwd, env });
  if (run.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${run.stderr}`);
}

/** The workspace: a repository with .husky, an include, a submodule gitdir, a worktree, nested repos. */
function buildWorkspace(identity: Identity, attack: AttackDir): string {
  const root = attack.mkdir("root");
  const env = attack;
  const commit = ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q"];
  git(env, root, "init", "-q", ".");
  git(env, root, "config", "core.hooksPath", ".husky");
  git(env, root, "config", "include.path", "../gitinclude.cfg");
  writeFileSync(path.join(root, "gitinclude.cfg"), INCLUDED);
  mkdirSync(path.join(root, ".husky"));
  writeFileSync(path.join(root, ".husky", "pre-commit"), HARMLESS_HOOK, { mode: 0o755 });
  git(env, root, ...commit, "--allow-empty", "-m", "init");
  git(env, root, "worktree", "add", "-q", "wt");
  attack.mkdir("root/.git/modules");
  git(env, root, "init", "-q", "--separate-git-dir", path.join(root, ".git/modules/sub"), "sub");
  git(env, root, "init", "-q", "vendor/lib");
  git(env, root, "init", "-q", "nohooks");
  rmSync(path.join(root, "nohooks/.git/hooks"), { recursive: true, force: true });
  rmSync(path.join(root, "nohooks/.git/info"), { recursive: true, force: true });
  giveTo(identity, attack.dir);
  return root;
}

/** One attack: a script run in the Root, and what must still hold on the host afterwards. */
interface GitAttack {
  name: string;
  script: string;
  holds(root: string): void;
}

const ATTACKS: GitAttack[] = [
  {
    name: "rename .git away and recreate it with a hook",
    script:
      "mv .git .git-away && mkdir -p .git/hooks && printf '%s' \"$P\" > .git/hooks/pre-commit",
    holds: (root) => {
      expect(existsSync(path.join(root, ".git-away"))).toBe(false);
      expect(existsSync(path.join(root, ".git/HEAD"))).toBe(true);
    },
  },
  {
    name: "rewrite the core.hooksPath hook (.husky) or rename .husky away",
    script: "printf '%s' \"$P\" > .husky/pre-commit; mv .husky .husky-away",
    holds: (root) => {
      expect(readFileSync(path.join(root, ".husky/pre-commit"), "utf8")).toBe(HARMLESS_HOOK);
      expect(existsSync(path.join(root, ".husky-away"))).toBe(false);
    },
  },
  {
    name: "append to the file include.path names",
    script: "printf '[core]\\n\\tfsmonitor = /var/tmp/evil\\n' >> gitinclude.cfg",
    holds: (root) => expect(readFileSync(path.join(root, "gitinclude.cfg"), "utf8")).toBe(INCLUDED),
  },
  {
    name: "plant a hook in a submodule's gitdir under .git/modules",
    script:
      "mkdir -p .git/modules/sub/hooks; printf '%s' \"$P\" > .git/modules/sub/hooks/post-checkout",
    holds: (root) =>
      expect(existsSync(path.join(root, ".git/modules/sub/hooks/post-checkout"))).toBe(false),
  },
  {
    name: "point a submodule's .git file elsewhere, or rename the submodule away",
    script: "echo 'gitdir: /var/tmp/evil' > sub/.git; mv sub sub-away",
    holds: (root) => {
      expect(readFileSync(path.join(root, "sub/.git"), "utf8")).toMatch(/modules\/sub/);
      expect(existsSync(path.join(root, "sub-away"))).toBe(false);
    },
  },
  {
    name: "rewrite a worktree's commondir or its .git file",
    script:
      "echo /var/tmp/evil > .git/worktrees/wt/commondir; echo 'gitdir: /var/tmp/evil' > wt/.git",
    holds: (root) => {
      expect(readFileSync(path.join(root, ".git/worktrees/wt/commondir"), "utf8")).toBe("../..\n");
      expect(readFileSync(path.join(root, "wt/.git"), "utf8")).toMatch(/worktrees\/wt/);
    },
  },
  {
    name: "plant a hook in a nested repository, or rename its parent or its .git away",
    script:
      "printf '%s' \"$P\" > vendor/lib/.git/hooks/pre-commit; echo '[core] hooksPath=/x' >> vendor/lib/.git/config; " +
      "mv vendor/lib/.git vendor/lib/.git-away; mv vendor vendor-away",
    holds: (root) => {
      expect(existsSync(path.join(root, "vendor/lib/.git/hooks/pre-commit"))).toBe(false);
      expect(readFileSync(path.join(root, "vendor/lib/.git/config"), "utf8")).not.toMatch(/\/x/);
      expect(existsSync(path.join(root, "vendor/lib/.git-away"))).toBe(false);
      expect(existsSync(path.join(root, "vendor-away"))).toBe(false);
    },
  },
  {
    name: "create the missing hooks/ of a repository and plant a hook there",
    script: "mkdir -p nohooks/.git/hooks; printf '%s' \"$P\" > nohooks/.git/hooks/pre-commit",
    holds: (root) => {
      // Created empty on the host before the run, then covered read-only.
      expect(readdirSync(path.join(root, "nohooks/.git/hooks"))).toEqual([]);
      expect(readdirSync(path.join(root, "nohooks/.git/info"))).toEqual([]);
    },
  },
];

describe.runIf(requireBwrapInCi())("git directories stay git's (§20.1 item 1)", () => {
  describe.each(identities())("server as $name", (identity) => {
    let attack: AttackDir;
    let root: string;
    let contained: ContainedServer;

    beforeAll(async () => {
      attack = attackDir(identity);
      root = buildWorkspace(identity, attack);
      contained = await startContained({
        identity,
        attack,
        programs: { sh: shProgram({ filesystem: "workspace-write" }) },
        roots: [root],
        env: { GIT_CONFIG_NOSYSTEM: "1" },
      });
    });

    afterAll(async () => {
      await contained?.server.close();
      attack?.remove();
    });

    it.each(ATTACKS)("refused: $name", async (attempt) => {
      const script = `P='${PLANTED}'; ${attempt.script}`;
      const run = await contained.sh("sh", script, root);
      expect(run.exitCode).not.toBe(0);
      expect(run.stderr).toMatch(/Read-only file system|Device or resource busy/);
      attempt.holds(root);
    });

    it("commits still work inside the sandbox (objects, refs and index stay writable)", async () => {
      const run = await contained.sh(
        "sh",
        "git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m second && " +
          "git rev-list --count HEAD",
        root,
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe("2");
    });
  });
});
