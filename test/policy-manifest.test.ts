// `rules` (v1 and v2) and `audit` in the shipped manifest schema (SPEC §9.1, §21, §22), and the
// pattern semantics of §21 on their own.

import { describe, expect, it } from "vitest";
import { validateManifest } from "../src/programs/load-catalog.js";
import { decide, patternMatches, ruleMatches } from "../src/policy/rules.js";
import type { Rule } from "../src/policy/types.js";
import { thrown } from "./manifest-fixtures.js";

type Json = Record<string, unknown>;

const rule = { match: { prefix: ["push"] }, decision: "deny", reason: "no pushes" };
const withRules = (version: 1 | 2, rules: unknown, extra: Json = {}): Json => ({
  version,
  programs: { git: { candidates: ["git"], rules } },
  ...extra,
});

function problem(value: unknown): string {
  const error = thrown(() => validateManifest(value));
  expect(error.code).toBe("INVALID_MANIFEST");
  return error.message;
}

describe("manifest rules and audit", () => {
  it.each([1, 2] as const)("accepts rules and audit in a v%i manifest", (version) => {
    const manifest = withRules(
      version,
      [rule, { ...rule, match: { contains: [["-f", "--force"]] }, decision: "ask" }],
      {
        audit: { path: "/var/log/scm/audit.jsonl", args: "full" },
      },
    );
    expect(() => validateManifest(manifest)).not.toThrow();
  });

  it.each([
    [{ ...rule, decision: "allow" }, "/programs/git/rules/0/decision"],
    [{ ...rule, match: {} }, "/programs/git/rules/0/match"],
    [{ ...rule, match: { prefix: "push" } }, "/programs/git/rules/0/match/prefix"],
    [{ ...rule, match: { prefix: [["push"], 3] } }, "/programs/git/rules/0/match/prefix/1"],
    [{ ...rule, match: { prefix: [[]] } }, "/programs/git/rules/0/match/prefix/0"],
    [{ ...rule, match: { suffix: ["x"] } }, "/programs/git/rules/0/match"],
    [{ match: rule.match, decision: "deny" }, "/programs/git/rules/0"],
    [{ ...rule, reason: "" }, "/programs/git/rules/0/reason"],
    [{ ...rule, extra: true }, "/programs/git/rules/0"],
  ])("rejects a malformed rule %j naming %s", (bad, where) => {
    expect(problem(withRules(2, [bad]))).toContain(where);
  });

  it.each([1, 2] as const)("accepts runsCode and rulesEnforcement in a v%i manifest", (version) => {
    for (const rulesEnforcement of ["advisory", "strict"]) {
      const manifest = withRules(version, [rule], { rulesEnforcement });
      (manifest.programs as Record<string, Json>).git!.runsCode = false;
      expect(() => validateManifest(manifest)).not.toThrow();
    }
  });

  it("rejects a malformed runsCode or rulesEnforcement, and runsCode in a platform override", () => {
    const bad = withRules(2, [rule]);
    (bad.programs as Record<string, Json>).git!.runsCode = "yes";
    expect(problem(bad)).toContain("/programs/git/runsCode");
    expect(problem(withRules(2, [rule], { rulesEnforcement: "lenient" }))).toContain(
      "/rulesEnforcement",
    );
    const override = withRules(2, [rule], {
      platforms: { linux: { programs: { git: { runsCode: true } } } },
    });
    expect(problem(override)).toContain("/platforms/linux/programs/git");
  });

  it("rejects rules in a platform override and a malformed audit", () => {
    const override = withRules(2, [rule], {
      platforms: { linux: { programs: { git: { rules: [rule] } } } },
    });
    expect(problem(override)).toContain("/platforms/linux/programs/git");
    expect(problem(withRules(2, [rule], { audit: { args: "some" } }))).toContain("/audit/args");
    expect(problem(withRules(2, [rule], { audit: { path: "relative.jsonl" } }))).toContain(
      "/audit/path",
    );
  });
});

describe("pattern semantics", () => {
  it("matches whole arguments, case-sensitively, * inside one argument only", () => {
    expect(patternMatches("push", "push")).toBe(true);
    expect(patternMatches("push", "Push")).toBe(false);
    expect(patternMatches("push", "pushx")).toBe(false);
    expect(patternMatches("--force*", "--force-with-lease=main")).toBe(true);
    expect(patternMatches("*lease*", "--force-with-lease=main")).toBe(true);
    expect(patternMatches("a*b*a", "aba")).toBe(true);
    expect(patternMatches("a*a", "a")).toBe(false);
    expect(patternMatches("*", "")).toBe(true);
    expect(patternMatches("?", "x")).toBe(false); // no other metacharacters
    expect(patternMatches(["-f", "--force"], "--force")).toBe(true);
  });

  it("prefix is args[0..n-1] in order; contains anywhere; both must hold", () => {
    expect(ruleMatches({ prefix: ["push", "origin"] }, ["push", "origin", "x"])).toBe(true);
    expect(ruleMatches({ prefix: ["push", "origin"] }, ["push"])).toBe(false);
    expect(ruleMatches({ prefix: ["push"] }, ["-C", "d", "push"])).toBe(false);
    expect(ruleMatches({ contains: ["push", "--force"] }, ["-C", "d", "push", "--force"])).toBe(
      true,
    );
    expect(ruleMatches({ contains: ["push", "--force"] }, ["push"])).toBe(false);
    expect(ruleMatches({ prefix: ["push"], contains: ["main"] }, ["push", "main"])).toBe(true);
    expect(ruleMatches({ prefix: ["push"], contains: ["main"] }, ["fetch", "main"])).toBe(false);
  });

  it("a matching deny wins over an earlier ask; indexes are 0-based", () => {
    const rules: Rule[] = [
      { match: { contains: ["--force"] }, decision: "ask", reason: "a" },
      { match: { contains: ["main"] }, decision: "deny", reason: "b" },
    ];
    expect(decide(rules, ["push", "--force", "main"])).toMatchObject({
      decision: "deny",
      index: 1,
    });
    expect(decide(rules, ["push", "--force"])).toMatchObject({ decision: "ask", index: 0 });
    expect(decide(rules, ["push"])).toEqual({ decision: "allow" });
  });
});
