// `exec --format text` (SPEC §13): the human-readable form of the Canonical Result, both streams
// in order with their byte counts, and the same exit-code contract as the JSON form.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDir, runCli, tempDir } from "./cli-helpers.js";

let root: string;

beforeAll(() => (root = tempDir("scm-exec-format-")));
afterAll(() => removeDir(root));

describe("exec --format text", () => {
  it("prints the outcome line, then stdout and stderr with their byte counts", () => {
    const script =
      'process.stdout.write("out\\n"); process.stderr.write("err!\\n"); process.exit(3)';
    const run = runCli(["exec", "--root", root, "--format", "text", "node", "-e", script]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^node: exit 3 \(\d+ ms\)$/);
    expect(lines.slice(1, 5)).toEqual([
      "--- stdout (4 bytes)",
      "out",
      "--- stderr (5 bytes)",
      "err!",
    ]);
  });

  it("refuses a format it does not know with INVALID_OPTION (exit 2)", () => {
    const run = runCli(["exec", "--root", root, "--format", "yaml", "node", "--version"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("INVALID_OPTION");
  });
});
