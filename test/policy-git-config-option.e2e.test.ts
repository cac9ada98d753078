// `-c` before a git subcommand decides the call by the program's strictest rule (SPEC §21.1), in
// cases where nothing else would: `-c core.sshCommand=… fetch`, `-c core.hooksPath=… commit` and
// `-c remote.origin.url=… push origin feature` name no ruled spelling, have no alias and push a
// refspec, so an ordinary reading allows each. Real server, real git, a local bare remote, as root
// and as an unprivileged user; the hook and the other remote live in the attack directory.
//
// Guards the git grammar against treating `-c` as a known global option with a value (stripped
// like `-C`): with that mutant the fetch runs, the commit runs the planted hook and the push lands
// on the attacker's remote.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, giveTo, identities, type AttackDir } from "./helpers/identity.js";
import { errorText, type TestServer } from "./helpers/server.js";
import { git, makeGitSetup, startGitServer, type GitSetup } from "./policy-git-helpers.js";

/** A deny rule (the strictest) that none of the calls below matches on its own. */
const DENY_MAIN = [
  {
    match: { prefix: ["push"], contains: ["main"] },
    decision: "deny",
    reason: "nobody pushes to main directly; open a pull request",
  },
];
/** An ask rule (the strictest) that none of the calls below matches on its own. */
const ASK_FORCE = [
  {
    match: { contains: ["push", "--force"] },
    decision: "ask",
    reason: "a force push rewrites shared history",
  },
];

describe.each(identities())("-c before the subcommand, as $name", (identity) => {
  let attack: AttackDir;
  let setup: GitSetup;
  let denyMain: TestServer;
  let askForce: TestServer;
  let hooks: string;
  let marker: string;
  let other: string;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-rules-git-c-");
    setup = makeGitSetup(attack);
    hooks = path.join(attack.dir, "planted-hooks");
    marker = path.join(attack.dir, "hook-ran");
    mkdirSync(hooks);
    writeFileSync(path.join(hooks, "pre-commit"), `#!/bin/sh\ntouch '${marker}'\n`, {
      mode: 0o755,
    });
    giveTo(identity, hooks);
    other = attack.mkdir("other.git");
    git(attack, other, ["init", "-q", "--bare", "-b", "main"]);
    denyMain = await startGitServer(attack, setup, DENY_MAIN, identity);
    askForce = await startGitServer(attack, setup, ASK_FORCE, identity);
  });

  afterAll(async () => {
    await denyMain?.close();
    await askForce?.close();
    attack?.remove();
  });

  const call = (server: TestServer, args: string[]) =>
    server.call("system_exec", { program: "git", args, cwd: setup.work });

  it("the same calls without -c are allowed (the control)", async () => {
    setup.reset();
    const fetched = await call(denyMain, ["fetch", "-q", "origin"]);
    expect(fetched.isError, errorText(fetched)).toBe(false);
    expect((fetched.structuredContent as Record<string, unknown>).exitCode).toBe(0);
  });

  it("-c core.sshCommand=… fetch origin is denied by the strictest rule", async () => {
    const result = await call(denyMain, [
      "-c",
      `core.sshCommand=touch '${marker}'`,
      "fetch",
      "origin",
    ]);
    expect(errorText(result)).toMatch(/^ARGUMENTS_DENIED: git: .*rule 0\b/);
  });

  it("-c core.hooksPath=… commit asks, and the planted hook does not run", async () => {
    const result = await call(askForce, [
      "-c",
      `core.hooksPath=${hooks}`,
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "x",
    ]);
    expect(errorText(result)).toMatch(/^APPROVAL_REQUIRED: git: .*rule 0\b/);
    expect(existsSync(marker)).toBe(false);
  });

  it("-c remote.origin.url=… push origin feature is denied; the other remote stays empty", async () => {
    setup.reset();
    const result = await call(denyMain, [
      "-c",
      `remote.origin.url=${other}`,
      "push",
      "-q",
      "origin",
      "feature",
    ]);
    expect(errorText(result)).toMatch(/^ARGUMENTS_DENIED: git: .*rule 0\b/);
    const landed = attack.run(
      "/usr/bin/git",
      ["rev-parse", "--verify", "-q", "refs/heads/feature"],
      {
        cwd: other,
      },
    );
    expect(landed.status).not.toBe(0);
  });
});
