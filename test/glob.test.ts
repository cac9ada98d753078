// The shared glob matcher (src/glob.ts): `*` is any run, everything else literal, whole text.
// Checked against a reference built from an anchored regular expression over thousands of
// generated globs and texts, and through environment hygiene's case-insensitive wrapper.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchesNamePattern } from "../src/environment/patterns.js";
import { globMatches } from "../src/glob.js";

/** The reference: the glob as an anchored regular expression (test-only; the product has none). */
function reference(glob: string, text: string): boolean {
  const source = glob
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${source}$`, "u").test(text);
}

describe("globMatches", () => {
  it.each([
    ["*", "", true],
    ["", "", true],
    ["", "a", false],
    ["a*", "abc", true],
    ["*c", "abc", true],
    ["a*c", "ac", true],
    ["a*b*c", "aXbYbZc", true],
    ["a*b*c", "acb", false],
    ["ab*ba", "aba", false],
    ["*.env*", "prod.env.local", true],
    ["--force", "--force", true],
    ["--force", "--Force", false],
    ["a?c", "abc", false],
    ["[x]", "[x]", true],
  ])("%j against %j is %s", (glob, text, expected) => {
    expect(globMatches(glob, text)).toBe(expected);
  });

  it("agrees with an anchored regular expression on generated globs and texts", () => {
    const alphabet = fc.constantFrom("a", "b", "*", ".", "-");
    const word = fc.array(alphabet, { maxLength: 8 }).map((chars) => chars.join(""));
    const text = fc
      .array(fc.constantFrom("a", "b", ".", "-", "*"), { maxLength: 10 })
      .map((c) => c.join(""));
    fc.assert(
      fc.property(word, text, (glob, value) => {
        expect(globMatches(glob, value)).toBe(reference(glob, value));
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("matchesNamePattern (environment hygiene)", () => {
  it("ignores case on both sides", () => {
    expect(matchesNamePattern("AWS_SECRET_ACCESS_KEY", "aws_*")).toBe(true);
    expect(matchesNamePattern("my_token", "*TOKEN")).toBe(true);
    expect(matchesNamePattern("TOKENIZER", "*_TOKEN")).toBe(false);
  });
});
