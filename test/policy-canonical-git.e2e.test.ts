// Issue 22's git attacks against the real server and real git with a local bare remote (SPEC
// §21.1): the rules "deny pushes to main" and "ask before force push" hold for every spelling —
// global options, HEAD:main and refs/heads/main, bundles, abbreviations, -c aliases and config
// refspecs — and the remote's refs stay as they were. As root and as an unprivileged user.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { errorText, type TestServer } from "./helpers/server.js";
import { makeGitSetup, startGitServer, type GitSetup } from "./policy-git-helpers.js";

/** The rule docs' examples (docs/rules-and-audit.md). */
const DENY_MAIN = [
  {
    match: { prefix: ["push"], contains: ["main"] },
    decision: "deny",
    reason: "nobody pushes to main directly; open a pull request",
  },
];
const ASK_FORCE = [
  {
    match: { contains: ["push", "--force"] },
    decision: "ask",
    reason: "a force push rewrites shared history",
  },
];

describe.each(identities())("git rules as $name", (identity) => {
  let attack: AttackDir;
  let setup: GitSetup;
  let denyMain: TestServer;
  let askForce: TestServer;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-rules-git-");
    setup = makeGitSetup(attack);
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

  it("runs an allowed push, so the refusals below are not the setup failing", async () => {
    setup.reset();
    const result = await call(denyMain, ["push", "-q", "origin", "HEAD:topic"]);
    expect(result.isError, errorText(result)).toBe(false);
    expect((result.structuredContent as Record<string, any>).exitCode).toBe(0);
    expect(setup.remoteRef("topic")).not.toBe("");
  });

  it.each([
    [["-C", ".", "push", "origin", "main"]],
    [["push", "origin", "HEAD:main"]],
    [["push", "origin", "refs/heads/main"]],
    [["push", "origin", "+main"]],
    [["--no-pager", "push", "-q", "origin", "--", "HEAD:refs/heads/main"]],
  ])("denies a push to main spelled %j; main stays", async (args) => {
    setup.reset();
    const result = await call(denyMain, args);
    expect(errorText(result)).toMatch(/^ARGUMENTS_DENIED: git: .*rule 0\b/);
    expect(setup.remoteRef("main")).toBe(setup.main);
  });

  it.each([
    [["push", "-fq"]],
    [["push", "--force-w", "origin", "feature"]],
    [["push", "origin", "+feature"]],
    [["push", "--force-with-lease=feature", "origin", "feature"]],
    [["-c", "alias.p=push", "p", "--force"]],
    [["-c", "remote.origin.push=+refs/heads/*:refs/heads/*", "push"]],
  ])("asks before a force push spelled %j; feature stays", async (args) => {
    setup.reset();
    const result = await call(askForce, args);
    expect(errorText(result)).toMatch(/^APPROVAL_REQUIRED: git: .*rule 0\b/);
    expect(setup.remoteRef("feature")).toBe(setup.feature);
    expect(setup.remoteRef("main")).toBe(setup.main);
  });

  it("lets a push that does not force run under the force rule", async () => {
    setup.reset();
    const result = await call(askForce, ["push", "-q", "origin", "main:other"]);
    expect(result.isError, errorText(result)).toBe(false);
    expect((result.structuredContent as Record<string, any>).exitCode).toBe(0);
    expect(setup.remoteRef("other")).not.toBe("");
  });
});
