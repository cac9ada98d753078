// The file-size check of `npm run lint` (scripts/check-file-size.mjs) fails on a source file over
// 300 lines, naming it and its line count, passes on one of exactly 300, and passes on the real tree.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript, sourceTrees } from "./lint-script-helpers.js";

const SCRIPT = path.resolve("scripts/check-file-size.mjs");
const tree = sourceTrees("scm-file-size-");
const check = (dir: string) => runScript(SCRIPT, dir);

/** `count` lines of TypeScript, each ending in a newline. */
function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const v${i} = ${i};\n`).join("");
}

describe("check-file-size", () => {
  it("passes on the real source tree", () => {
    const run = check(path.resolve("src"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("passes on a file of exactly 300 lines", () => {
    const run = check(tree({ "output/at-limit.ts": lines(300), "small.ts": lines(1) }));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("fails on a file of 301 lines, naming the file and its line count", () => {
    const run = check(tree({ "output/too-long.ts": lines(301), "small.ts": lines(1) }));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/output[/\\]too-long\.ts has 301 lines, expected at most 300/);
    expect(run.stderr).not.toContain("small.ts");
    expect(run.stderr).toContain("1 file(s) too long");
  });

  it("counts a last line without a final newline", () => {
    const run = check(tree({ "a.ts": lines(300), "b.ts": `${lines(300)}export {};` }));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("b.ts has 301 lines");
    expect(run.stderr).not.toContain("a.ts has");
  });
});
