// The layering check of `npm run lint` (scripts/check-imports.mjs) fails on an upward import, on
// an import cycle and on a folder cycle, and passes on the real tree.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript, sourceTrees } from "./lint-script-helpers.js";

const SCRIPT = path.resolve("scripts/check-imports.mjs");
const tree = sourceTrees("scm-layering-");
const check = (dir: string) => runScript(SCRIPT, dir);

describe("check-imports", () => {
  it("passes on the real source tree", () => {
    const run = check(path.resolve("src"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("passes on a tree whose imports point one way", () => {
    const dir = tree({
      "cli/main.ts": 'import { r } from "../runtime/r.js";\nexport const m = r;\n',
      "runtime/r.ts": 'import { p } from "../process/p.js";\nexport const r = p;\n',
      "process/p.ts": 'import type { E } from "../errors.js";\nexport const p = 1 as E;\n',
      "errors.ts": "export type E = number;\n",
    });
    expect(check(dir).status).toBe(0);
  });

  it.each([
    ["runtime", "../runtime/r.js"],
    ["mcp", "../mcp/m.js"],
    ["cli", "../cli/c.js"],
  ])("fails on a stage importing %s/ (type-only too)", (folder, specifier) => {
    const dir = tree({
      "process/p.ts": `import type { X } from "${specifier}";\nexport type P = X;\n`,
      "runtime/r.ts": "export type X = 1;\n",
      "mcp/m.ts": "export type X = 1;\n",
      "cli/c.ts": "export type X = 1;\n",
    });
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`a stage (process/) must not import ${folder}/`);
  });

  it("fails on the runtime importing an adapter, and on a dynamic import", () => {
    const dir = tree({
      "runtime/r.ts": 'export const load = () => import("../mcp/m.js");\n',
      "mcp/m.ts": "export const m = 1;\n",
    });
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("runtime/ must not import mcp/");
  });

  it("fails on an import cycle and names every member", () => {
    const dir = tree({
      "output/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
      "output/b.ts": 'import type { C } from "./c.js";\nexport type B = C;\n',
      "output/c.ts": 'import type { A } from "./a.js";\nexport type C = A | 1;\n',
    });
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/import cycle: .*a\.ts ↔ .*b\.ts ↔ .*c\.ts/);
  });

  it("fails on a folder cycle that no file cycle shows, naming the folders and an import each way", () => {
    const dir = tree({
      "output/types.ts":
        'import type { Outcome } from "../artifacts/types.js";\nexport type S = Outcome;\n',
      "artifacts/types.ts": "export type Outcome = 1;\n",
      "artifacts/store.ts":
        'import type { S } from "../output/types.js";\nexport type Store = S;\n',
    });
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain("import cycle");
    expect(run.stderr).toContain("folder cycle: artifacts ↔ output");
    expect(run.stderr).toContain("artifacts/store.ts → ");
    expect(run.stderr).toContain("output/types.ts → ");
    expect(run.stderr).toContain("1 problem(s)");
  });

  it("finds a folder cycle through three folders and through a type-only re-export", () => {
    const dir = tree({
      "manifest/types.ts": 'export type { P } from "../programs/types.js";\n',
      "programs/types.ts": 'import type { E } from "../environment/e.js";\nexport type P = E;\n',
      "environment/e.ts": "export type E = 1;\n",
      "environment/layers.ts":
        'import type { P } from "../manifest/types.js";\nexport type L = P;\n',
    });
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("folder cycle: environment ↔ manifest ↔ programs");
  });

  it("passes when folders import each other one way only", () => {
    const dir = tree({
      "artifacts/store.ts":
        'import type { S } from "../output/types.js";\nexport type Store = S;\n',
      "output/types.ts": 'import type { E } from "../errors.js";\nexport type S = E;\n',
      "errors.ts": "export type E = 1;\n",
    });
    const run = check(dir);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
