// The packages a start does not need are bundles of their own (scripts/bundle.mjs LAZY_PACKAGES),
// so that a start parses less (SPEC §16 cold start). The e2e suite runs their code through
// dist/cli/main.js (grep.e2e: re2js; configured-mode.e2e: semver for Project Node).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/server.js";

const bundle = (name: string) =>
  readFileSync(path.join(REPO_ROOT, "dist", "cli", "bundle", `${name}.cjs`), "utf8");

/** An identifier that only each package's own code defines. */
const MARKERS = { re2: "RE2JSSyntaxException", semver: "SEMVER_SPEC_VERSION" } as const;

describe("lazy package bundles", () => {
  for (const [name, marker] of Object.entries(MARKERS)) {
    it(`keeps ${name}'s code out of cli.cjs and in ${name}.cjs`, () => {
      expect(bundle(name)).toContain(marker);
      expect(bundle("cli")).not.toContain(marker);
      expect(bundle("cli")).toContain(`__scmLoad(${JSON.stringify(name)})`);
    });
  }

  it("ships bundles without comments or non-ASCII text (a one-byte source string to parse)", () => {
    for (const name of ["cli", "sdk", "validator", ...Object.keys(MARKERS)]) {
      const text = bundle(name);
      expect(/[^\x00-\x7f]/.test(text), `${name}.cjs has non-ASCII characters`).toBe(false);
      expect(text.split("\n").length, `${name}.cjs lines`).toBeLessThan(text.length / 200);
    }
  });
});
