// The build's precompiled manifest validator (scripts/build-manifest-validator.mjs): it carries
// the schema text it was compiled from, is used only while that is the shipped schema file's
// text, and accepts and refuses what the schema does.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const validator = require(path.join(repo, "dist/manifest/manifest-schema.validator.cjs")) as {
  default: (value: unknown) => boolean;
  schemaText: string;
};

describe("precompiled manifest validator", () => {
  it("carries the exact text of the shipped schema file", () => {
    const schema = readFileSync(path.join(repo, "system-command-manifest.schema.json"), "utf8");
    expect(validator.schemaText).toBe(schema);
  });

  it("accepts the example manifest and refuses a manifest of an unknown version", () => {
    const example = JSON.parse(
      readFileSync(path.join(repo, "system-command-manifest.example.json"), "utf8"),
    ) as unknown;
    expect(validator.default(example)).toBe(true);
    expect(validator.default({ version: 99, programs: {} })).toBe(false);
  });
});
