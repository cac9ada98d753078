// The file-size check of `npm run lint` (scripts/check-file-size.mjs) fails on a source file over
// 300 lines, naming it and its line count, passes on one of exactly 300, and passes on the real tree.

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = path.resolve("scripts/check-file-size.mjs");
const dirs: string[] = [];

/** A source tree with one file of `lines` lines (each ending in a newline) at `name`. */
function tree(name: string, lines: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "scm-file-size-"));
  dirs.push(dir);
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  const text = Array.from({ length: lines }, (_, i) => `export const v${i} = ${i};\n`).join("");
  writeFileSync(path.join(dir, name), text);
  writeFileSync(path.join(dir, "small.ts"), "export const small = 1;\n");
  return dir;
}

function check(dir: string) {
  const run = spawnSync(process.execPath, [SCRIPT, dir], { encoding: "utf8", timeout: 30_000 });
  return { status: run.status, stderr: run.stderr };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("check-file-size", () => {
  it("passes on the real source tree", () => {
    const run = check(path.resolve("src"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("passes on a file of exactly 300 lines", () => {
    const run = check(tree("output/at-limit.ts", 300));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("fails on a file of 301 lines, naming the file and its line count", () => {
    const run = check(tree("output/too-long.ts", 301));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/output[/\\]too-long\.ts has 301 lines, expected at most 300/);
    expect(run.stderr).not.toContain("small.ts");
    expect(run.stderr).toContain("1 file(s) too long");
  });

  it("counts a last line without a final newline", () => {
    const dir = tree("a.ts", 300);
    writeFileSync(path.join(dir, "b.ts"), "x\n".repeat(300) + "y");
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("b.ts has 301 lines");
    expect(run.stderr).not.toContain("a.ts has");
  });
});
