// The one display function (SPEC §21.1 "what a human is shown cannot lie"): the output is one JSON
// string that parses back to the input, and never holds a control, separator, format or non-ASCII
// space character raw.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayList, displayText } from "../src/display-text.js";

/** What must never be printed raw: C0, DEL, C1, Zl/Zp, every Cf, every Zs but U+0020. */
const RAW_HIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]|(?! )\p{Zs}/u;

describe("displayText", () => {
  it.each([
    ["a\nb", '"a\\nb"'],
    ["\u001b[31mred", '"\\u001b[31mred"'],
    ["abc\u202eRTL", '"abc\\u202eRTL"'],
    ["zero\u200bwidth\u2060joiner\ufeff", '"zero\\u200bwidth\\u2060joiner\\ufeff"'],
    ["tag\u{E0041}", '"tag\\udb40\\udc41"'],
    ["c1\u0085\u009b", '"c1\\u0085\\u009b"'],
    ["del\u007f", '"del\\u007f"'],
    ["line\u2028para\u2029", '"line\\u2028para\\u2029"'],
    ["nb\u00a0ideo\u3000thin\u2009", '"nb\\u00a0ideo\\u3000thin\\u2009"'],
    ["plain space, é, 日本", '"plain space, é, 日本"'],
    ['quote " and \\', '"quote \\" and \\\\"'],
  ])("shows %j as %s", (input, shown) => {
    expect(displayText(input)).toBe(shown);
  });

  it("is one JSON string that parses back, with nothing hidden raw (generated)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (input) => {
        const shown = displayText(input);
        expect(shown).not.toMatch(RAW_HIDDEN);
        expect(shown.includes("\n")).toBe(false);
        expect(JSON.parse(shown)).toBe(input);
      }),
      { numRuns: 2000 },
    );
  });

  it("shows a list as a JSON array of such strings", () => {
    const list = ["--ask", "\u001b[1A", "ok"];
    expect(displayList(list)).toBe('["--ask","\\u001b[1A","ok"]');
    expect(JSON.parse(displayList(list))).toEqual(list);
  });
});
