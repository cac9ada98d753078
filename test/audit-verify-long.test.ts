// `audit verify --key` of a log long enough that the keys are derived by a worker thread ahead of
// the check (src/policy/seal-key-chain.ts): an intact log verifies, a changed record in the
// middle and a cut-off end are named — the same verdicts as the inline derivation.

import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-helpers.js";
import { FIXTURES, removeDir, tempDir } from "./helpers/server.js";

const RECORDS = 30_000; // past the worker's 20,000-key threshold
const CHANGED_LINE = 17_001;

describe("audit verify --key of a long log", () => {
  let dir: string;
  let log: string;
  let key: string;

  beforeAll(() => {
    dir = tempDir();
    log = path.join(dir, "long.jsonl");
    key = execFileSync(
      process.execPath,
      [path.join(FIXTURES, "audit-sealed-log.cjs"), log, String(RECORDS)],
      {
        encoding: "utf8",
      },
    ).trim();
  });
  afterAll(() => removeDir(dir));

  it("verifies the intact log", () => {
    const run = runCli(["audit", "verify", log, "--key", key]);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`seal: ${RECORDS} sealed record\\(s\\) from line 1, state index ${RECORDS}`),
    );
  });

  it("names a changed record in the middle and a cut-off end", () => {
    const copy = path.join(dir, "edited.jsonl");
    const lines = readFileSync(log, "utf8").split("\n");
    lines[CHANGED_LINE - 1] = lines[CHANGED_LINE - 1]!.replace('"exitCode":0', '"exitCode":1');
    writeFileSync(copy, lines.slice(0, 25_000).join("\n") + "\n");
    copyFileSync(`${log}.seal`, `${copy}.seal`);
    const run = runCli(["audit", "verify", copy, "--key", key]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^line ${CHANGED_LINE}: the seal \\(index ${CHANGED_LINE - 1}\\) does not verify`,
        "m",
      ),
    );
    expect(run.stdout).toMatch(/the records with index 25000–29999 were cut off/);
    expect(run.stdout).toMatch(new RegExp(`the first at line ${CHANGED_LINE}\\n`));
  });
});
