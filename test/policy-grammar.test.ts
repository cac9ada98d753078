// The canonical argv the rules match (SPEC §21.1), through the policy stage's decision function:
// generated git push invocations (global options, bundles, abbreviations, every refspec form) are
// decided by the force rule exactly when they force, and by the main rule exactly when they update
// main; npm/pnpm/yarn/npx spellings resolve to the command the program acts on.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grammarFor } from "../src/policy/grammar/index.js";
import { decideCall } from "../src/policy/rules.js";
import type { Rule } from "../src/policy/types.js";

const FORCE_RULE: Rule = {
  match: { contains: ["push", "--force"] },
  decision: "ask",
  reason: "force",
};
const MAIN_RULE: Rule = {
  match: { prefix: ["push"], contains: ["main"] },
  decision: "deny",
  reason: "main",
};
const git = grammarFor(["git"]);
const decision = (rules: Rule[], program: string, args: string[]) =>
  decideCall(rules, args, grammarFor([program])).decision;

/** Global options git removes (with their values). */
const globalOption = fc.constantFrom(
  ["-C", "."],
  ["--git-dir=.git"],
  ["--git-dir", ".git"],
  ["--work-tree", "."],
  ["--namespace=x"],
  ["--no-pager"],
  ["-P"],
  ["-p"],
  ["--literal-pathspecs"],
  ["--no-optional-locks"],
);
/** push options that do not force, in full, abbreviated and bundled spellings. */
const quietOption = fc.constantFrom(
  ["-q"],
  ["--quiet"],
  ["--qui"],
  ["-v"],
  ["--verb"],
  ["-u"],
  ["--set-up"],
  ["--atomic"],
  ["--atom"],
  ["--no-verify"],
  ["--progress"],
  ["-o", "ci.skip"],
  ["--push-option=x"],
  ["-qv"],
  ["-uq"],
  ["-qoci.skip"],
);
/** Every spelling of a force as an option. */
const forceOption = fc.constantFrom(
  ["-f"],
  ["--force"],
  ["--force-w"],
  ["--force-with"],
  ["--force-with-lease"],
  ["--force-with-lease=feature"],
  ["--force-with-lease=feature:abc123"],
  ["--force-if-includes"],
  ["--force-i"],
  ["-fq"],
  ["-qf"],
  ["-vuf"],
  ["-fo", "x"],
);
const branch = fc.constantFrom("main", "feature", "topic", "mainline", "release/main");
/** A refspec updating `to`, in every form. */
const refspec = (to: string, forced: boolean) =>
  fc
    .constantFrom(
      to,
      `HEAD:${to}`,
      `refs/heads/${to}`,
      `feature:refs/heads/${to}`,
      `HEAD:heads/${to}`,
    )
    .map((form) => (forced ? `+${form}` : form));

interface Push {
  args: string[];
  forces: boolean;
  toMain: boolean;
}

const push: fc.Arbitrary<Push> = fc
  .record({
    globals: fc.array(globalOption, { maxLength: 3 }),
    options: fc.array(quietOption, { maxLength: 3 }),
    force: fc.option(forceOption, { nil: undefined }),
    targets: fc.array(fc.tuple(branch, fc.boolean()), { minLength: 1, maxLength: 3 }),
    dashes: fc.boolean(),
  })
  .chain((shape) =>
    fc
      .tuple(
        fc.tuple(...shape.targets.map(([to, plus]) => refspec(to, plus))),
        fc.integer({ min: 0, max: shape.options.length }),
      )
      .map(([specs, at]) => {
        // The force goes between whole options (inside one, it would be another's value).
        const whole: (readonly string[])[] = [...shape.options];
        if (shape.force) whole.splice(at, 0, shape.force);
        const options = whole.flat();
        const args = [
          ...shape.globals.flat(),
          "push",
          ...options,
          "origin",
          ...(shape.dashes ? ["--"] : []),
          ...specs,
        ];
        return {
          args,
          forces: shape.force !== undefined || shape.targets.some(([, plus]) => plus),
          toMain: shape.targets.some(([to]) => to === "main"),
        };
      }),
  );

describe("git push, generated", () => {
  it("is decided by the force rule exactly when it forces", () => {
    fc.assert(
      fc.property(push, (call) => {
        const verdict = decideCall([FORCE_RULE], call.args, git);
        expect(verdict.decision, JSON.stringify(call.args)).toBe(call.forces ? "ask" : "allow");
      }),
      { numRuns: 500 },
    );
  });

  it("is decided by the main rule exactly when it updates main", () => {
    fc.assert(
      fc.property(push, (call) => {
        const verdict = decideCall([MAIN_RULE, FORCE_RULE], call.args, git);
        const expected = call.toMain ? "deny" : call.forces ? "ask" : "allow";
        expect(verdict.decision, JSON.stringify(call.args)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe("git calls decided by the strictest rule", () => {
  it.each([
    [["-c", "alias.p=push", "p", "--force"]],
    [["--config-env=alias.p=X", "status"]],
    [["--exec-path=/tmp/x", "status"]],
    [["-Cdir", "status"]],
    [["--unknown-option", "push", "origin", "x"]],
    [["p", "origin", "x"]],
  ])("%j: the program's strictest rule", (args) => {
    expect(decideCall([FORCE_RULE, MAIN_RULE], args, git)).toMatchObject({
      decision: "deny",
      index: 1,
    });
    expect(decideCall([FORCE_RULE], args, git).decision).toBe("ask");
  });

  it.each([
    [["push"]],
    [["push", "origin"]],
    [["push", "--all", "origin"]],
    [["push", "--mirror", "origin"]],
    [["push", "--tags", "origin"]],
    [["push", "origin", "refs/heads/*:refs/heads/*"]],
    [["push", "origin", "HEAD"]],
    [["push", "origin", ":"]],
    [["push", "--fo", "origin", "x"]],
  ])("%j: the strictest rule that names push", (args) => {
    expect(decideCall([FORCE_RULE, MAIN_RULE], args, git).decision).toBe("deny");
    const other: Rule = { match: { prefix: ["fetch"] }, decision: "deny", reason: "no fetch" };
    expect(decideCall([other, FORCE_RULE], args, git)).toMatchObject({ decision: "ask", index: 1 });
  });

  it("keeps other subcommands literal and lets --version through", () => {
    expect(decideCall([MAIN_RULE], ["-C", ".", "log", "main"], git).decision).toBe("allow");
    expect(decideCall([MAIN_RULE], ["--version"], git).decision).toBe("allow");
  });
});

describe("npm, pnpm, yarn and npx", () => {
  const publish: Rule = { match: { prefix: ["publish"] }, decision: "deny", reason: "no" };
  const run: Rule = { match: { prefix: ["run-script", "deploy"] }, decision: "ask", reason: "?" };

  it.each([
    ["npm", ["publish"]],
    ["npm", ["pub"]],
    ["npm", ["publ", "--dry-run"]],
    ["npm", ["--workspace", "web", "publish"]],
    ["npm", ["-w=web", "publish"]],
    ["npm", ["--some-config", "value", "publish"]],
    ["npm", ["exec", "--", "npm", "publish"]],
    ["npm", ["x", "--package=npm", "--", "npm", "pub"]],
    ["npx", ["npm", "publish"]],
    ["npx", ["-p", "npm", "npm", "pub"]],
    ["npm", ["exec", "-c", "anything at all"]],
    ["npx", ["--call", "npm publish"]],
    ["pnpm", ["publish"]],
    ["pnpm", ["--filter", "web", "publish"]],
    ["pnpm", ["dlx", "npm", "publish"]],
    ["pnpm", ["exec", "-c", "npm publish"]],
    ["yarn", ["publish"]],
    ["yarn", ["exec", "npm publish"]],
    ["/usr/lib/node_modules/npm/bin/npm-cli.js", ["pub"]],
  ])("%s %j is a publish", (program, args) => {
    expect(decision([publish], program, args)).toBe("deny");
  });

  it.each([
    ["npm", ["run", "deploy"]],
    ["npm", ["rum", "deploy"]],
    ["npm", ["run-script", "deploy"]],
    ["npm", ["urn", "deploy"]],
  ])("%s %j is run-script", (program, args) => {
    expect(decision([run], program, args)).toBe("ask");
  });

  it.each([
    ["npm", ["test"]],
    ["npm", ["install", "publish-helper"]],
    ["npm", ["pack", "--dry-run"]],
    ["pnpm", ["add", "x"]],
    ["npx", ["eslint", "."]],
  ])("%s %j is not", (program, args) => {
    expect(decision([publish], program, args)).toBe("allow");
  });
});
