// doctor and argument rules (SPEC §21): rules validated and printed, `doctor --check <program>
// [args…]` printing allow / ask / deny with the deciding rule, and the audit log setting.

import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { CLI_ENTRY, removeDir, tempDir, writeManifest } from "./helpers/server.js";
import { GUARDED_RULES, guardedManifest, stateEnv } from "./policy-helpers.js";

let dir: string;
let manifest: string;

function doctor(args: string[], manifestFile = manifest) {
  return spawnSync(
    process.execPath,
    [CLI_ENTRY, "doctor", "--manifest", manifestFile, "--root", dir, ...args],
    { encoding: "utf8", timeout: 30_000, env: stateEnv(dir) },
  );
}

beforeAll(() => {
  dir = tempDir();
  manifest = writeManifest(dir, guardedManifest());
});

afterAll(() => {
  if (dir) removeDir(dir);
});

describe("doctor and rules", () => {
  it("prints each program's rules in words, and in --json as written", () => {
    const text = doctor([]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'rule 1: deny when contains ["push",["--force","-f"]] ("plain force pushes are never allowed; use --force-with-lease")',
    );
    expect(text.stdout).toContain('rule 0: deny when prefix ["-p"] ("no printing one-liners")');
    expect(text.stdout).toContain("Audit log: off");
    const json = JSON.parse(doctor(["--json"]).stdout);
    const git = json.programs.find((p: { name: string }) => p.name === "git");
    expect(git.rules).toEqual(GUARDED_RULES.git);
    expect(json.audit).toBeNull();
  });

  it.each([
    [["git", "-C", "d", "push", "--force"], "deny", 1],
    // §21.1: every force spelling is canonical --force, so a lease is the plain-force deny (rule 1).
    [["git", "push", "--force-with-lease", "origin", "feature"], "deny", 1],
    [["git", "push", "origin", "HEAD:refs/heads/main"], "deny", 2],
    [["node", "-e", "0", "--ask-me"], "ask", 1],
    [["git", "status"], "allow", undefined],
  ] as const)("--check %j → %s", (call, decision, index) => {
    const run = doctor(["--json", "--check", ...call]);
    expect(run.status, run.stderr).toBe(0);
    const check = JSON.parse(run.stdout).check;
    expect(check.program).toBe(call[0]);
    expect(check.args).toEqual(call.slice(1));
    expect(check.decision).toBe(decision);
    expect(check.rule?.index).toBe(index);
    const text = doctor(["--check", ...call]).stdout;
    expect(text).toContain(`Check: ${call[0]} ${JSON.stringify(call.slice(1))} → ${decision}`);
  });

  it("--check of an unregistered program → PROGRAM_NOT_REGISTERED; args without --check → INVALID_OPTION", () => {
    const unknown = doctor(["--check", "nope", "x"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/PROGRAM_NOT_REGISTERED: --check "nope"/);
    const stray = doctor(["git", "status"]);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toMatch(/INVALID_OPTION/);
  });

  it("rejects a malformed rule with INVALID_MANIFEST naming the field", () => {
    const bad = guardedManifest();
    bad.programs.git.rules = [{ match: { prefix: ["push"] }, decision: "maybe", reason: "x" }];
    const file = path.join(dir, "bad.json");
    writeFileSync(file, JSON.stringify(bad));
    const run = doctor([], file);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/INVALID_MANIFEST: .*\/programs\/git\/rules\/0\/decision/);
  });

  it("reports the audit log path: --audit-log wins, the manifest's args apply", () => {
    const withAudit = path.join(dir, "audited.json");
    writeFileSync(
      withAudit,
      JSON.stringify(guardedManifest({ audit: { path: "~/x.jsonl", args: "full" } })),
    );
    const flag = path.join(dir, "flag.jsonl");
    const flagged = JSON.parse(doctor(["--json", "--audit-log", flag], withAudit).stdout);
    expect(flagged.audit).toEqual({ path: flag, args: "full" });
    const fromManifest = doctor([], withAudit);
    expect(fromManifest.stdout).toMatch(/^Audit log: \/.*\/x\.jsonl \(args: full\)$/m);
  });
});
