// A real git setup for the canonical-argv attacks (SPEC §21.1, issue 22): a bare remote and a
// clone, owned by the attack identity, where `main` is ahead locally and `feature` was rewritten
// locally (so only a force push updates it). Everything lives in the attack directory.

import path from "node:path";
import { expect } from "vitest";
import type { AttackDir } from "./helpers/identity.js";
import { startServer, writeManifest, type TestServer } from "./helpers/server.js";

export const GIT = "/usr/bin/git";

/** git settings of every command here: no system or user config, a fixed author. */
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
  GIT_TERMINAL_PROMPT: "0",
};

export interface GitSetup {
  remote: string;
  work: string;
  /** The remote's refs as they must stay when an attack is refused. */
  main: string;
  feature: string;
  /** Puts the remote's and the tracking refs back to main/feature. */
  reset(): void;
  /** The commit a remote branch points at ("" when it does not exist). */
  remoteRef(branch: string): string;
}

/** Runs git as the attack identity; fails the test when it fails. */
export function git(attack: AttackDir, cwd: string, args: string[]): string {
  const result = attack.run(GIT, args, { cwd, env: attack.env(GIT_ENV) });
  expect(result.status, `git ${args.join(" ")}: ${result.stderr}`).toBe(0);
  return result.stdout.trim();
}

export function makeGitSetup(attack: AttackDir): GitSetup {
  const remote = attack.mkdir("remote.git");
  const work = attack.mkdir("work");
  git(attack, remote, ["init", "-q", "--bare", "-b", "main"]);
  git(attack, work, ["init", "-q", "-b", "main"]);
  git(attack, work, ["remote", "add", "origin", remote]);
  git(attack, work, ["commit", "-q", "--allow-empty", "-m", "c1"]);
  git(attack, work, ["push", "-q", "origin", "main"]);
  const main = git(attack, work, ["rev-parse", "HEAD"]);
  git(attack, work, ["switch", "-q", "-c", "feature"]);
  git(attack, work, ["commit", "-q", "--allow-empty", "-m", "f1"]);
  git(attack, work, ["push", "-q", "-u", "origin", "feature"]);
  const feature = git(attack, work, ["rev-parse", "HEAD"]);
  // Local main moves ahead; local feature is rewritten (the remote's f1 is not its ancestor).
  git(attack, work, ["branch", "-f", "main", "feature"]);
  git(attack, work, ["commit", "-q", "--amend", "--allow-empty", "-m", "f2"]);
  const remoteRef = (branch: string) => {
    const result = attack.run(GIT, ["rev-parse", "--verify", "-q", `refs/heads/${branch}`], {
      cwd: remote,
      env: attack.env(GIT_ENV),
    });
    return result.status === 0 ? result.stdout.trim() : "";
  };
  const reset = () => {
    git(attack, remote, ["update-ref", "refs/heads/main", main]);
    git(attack, remote, ["update-ref", "refs/heads/feature", feature]);
    git(attack, work, ["update-ref", "refs/remotes/origin/feature", feature]);
    git(attack, work, ["update-ref", "refs/remotes/origin/main", main]);
  };
  return { remote, work, main, feature, reset, remoteRef };
}

/** The real server, as the attack identity, with git registered under `rules`. */
export async function startGitServer(
  attack: AttackDir,
  setup: GitSetup,
  rules: unknown[],
  runAs: Parameters<typeof startServer>[0]["runAs"],
): Promise<TestServer> {
  const manifest = writeManifest(attack.dir, {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    environment: { set: GIT_ENV },
    programs: { git: { candidates: [GIT], rules } },
  });
  return startServer({
    args: [
      "--manifest",
      manifest,
      "--root",
      setup.work,
      "--artifact-dir",
      path.join(attack.dir, "artifacts"),
    ],
    env: attack.env(),
    runAs,
  });
}
