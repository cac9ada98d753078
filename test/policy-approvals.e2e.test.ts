// Approvals of `ask` rules through the real server (SPEC §21): form elicitation answered run /
// decline / cancel / deny, and without elicitation APPROVAL_REQUIRED → `approve --yes <id>` →
// one run with approvalId; used, changed, expired and denied ids are refused.

import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  approvalIdOf,
  approvalsDir,
  askManifest,
  sharePolicyServer,
  stateCli,
  textOf,
  type PolicyClient,
} from "./policy-helpers.js";

const markerScript = (marker: string) =>
  `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;

describe("ask with a client that declared elicitation", () => {
  let dir: string;
  let server: PolicyClient;
  let answer: Record<string, unknown> = { action: "cancel" };
  let delayMs = 0;
  const seen: Record<string, any>[] = [];

  sharePolicyServer(
    askManifest(),
    (started, made) => {
      server = started;
      dir = made;
    },
    {
      elicitation: async (params) => {
        seen.push(params);
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return answer;
      },
    },
  );

  it("shows program, JSON-quoted args, cwd and reason in a form; run runs it", async () => {
    answer = { action: "accept", content: { decision: "run" } };
    const marker = path.join(dir, "ran-after-run");
    const args = ["-e", markerScript(marker), "--", "--ask-me", 'with "quotes" and spaces'];
    const before = seen.length;
    const result = await server.call("system_exec", { program: "node", args });
    expect(result.isError, textOf(result)).toBe(false);
    expect((result.structuredContent as Record<string, any>).exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(seen.length).toBe(before + 1);
    const params = seen.at(-1)!;
    expect(params.mode).toBe("form");
    expect(params.message).toContain('program: "node"');
    expect(params.message).toContain(`args: ${JSON.stringify(args)}`);
    expect(params.message).toContain(`cwd: ${JSON.stringify(dir)}`);
    expect(params.message).toContain("flags starting --ask- need a human");
    expect(params.requestedSchema.properties.decision.enum).toEqual(["run", "deny"]);
    expect(params.requestedSchema.required).toEqual(["decision"]);
  });

  it.each([
    ["decline", { action: "decline" }],
    ["cancel", { action: "cancel" }],
    ["accept with deny", { action: "accept", content: { decision: "deny" } }],
  ])("%s → APPROVAL_DENIED and nothing spawned", async (label, reply) => {
    answer = reply;
    const marker = path.join(dir, `ran-after-${label.replace(/ /g, "-")}`);
    const result = await server.call("system_exec", {
      program: "node",
      args: ["-e", markerScript(marker), "--", "--ask-me"],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^APPROVAL_DENIED: node: .*rule 1/);
    expect(existsSync(marker)).toBe(false);
  });

  it("does not count the wait toward timeoutMs or yieldMs", async () => {
    answer = { action: "accept", content: { decision: "run" } };
    delayMs = 2_500; // longer than both the timeout and the yield below
    try {
      const started = Date.now();
      const result = await server.call("system_exec", {
        program: "true",
        args: ["--ask"],
        timeoutMs: 1_000,
        yieldMs: 500,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(delayMs);
      const value = result.structuredContent as Record<string, any>;
      expect(value.status).toBe("completed");
      expect(value.timedOut).toBe(false);
      expect(value.exitCode).toBe(0);
      expect(value.durationMs).toBeLessThan(delayMs);
    } finally {
      delayMs = 0;
    }
  });

  it("never asks for a call no rule matches, and ignores an approvalId there", async () => {
    const before = seen.length;
    const result = await server.call("system_exec", {
      program: "true",
      args: ["plain"],
      approvalId: "not-an-id",
    });
    expect((result.structuredContent as Record<string, any>).exitCode).toBe(0);
    expect(seen.length).toBe(before);
  });
});

describe("ask without elicitation: approve <id> out of band", () => {
  let dir: string;
  let server: PolicyClient;

  sharePolicyServer(askManifest(), (started, made) => {
    server = started;
    dir = made;
  });

  async function requireApproval(args: string[]): Promise<string> {
    const result = await server.call("system_exec", { program: "true", args });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^APPROVAL_REQUIRED: true: /);
    return approvalIdOf(text);
  }

  it("answers APPROVAL_REQUIRED with a 32-hex id, the instruction, and a 0600 pending file", async () => {
    const result = await server.call("system_exec", { program: "true", args: ["--ask", "x y"] });
    const text = textOf(result);
    const id = approvalIdOf(text);
    expect(text).toContain(
      `run "system-command-mcp approve ${id}" in a terminal, then call again with "approvalId"`,
    );
    expect(text).toContain('"a human must say yes"');
    const file = path.join(approvalsDir(dir), `${id}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(approvalsDir(dir)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({ id, program: "true", args: ["--ask", "x y"], cwd: dir });
    expect(stored.status).toBe("pending");
  });

  it("approve --yes <id> prints the exact command; the call with approvalId runs once", async () => {
    const args = ["--ask", 'a "quoted" arg'];
    const id = await requireApproval(args);
    // Not approved yet: still refused, with a new id.
    const early = await server.call("system_exec", { program: "true", args, approvalId: id });
    expect(textOf(early)).toMatch(/^APPROVAL_REQUIRED: .*has not been approved yet/);
    expect(approvalIdOf(textOf(early))).not.toBe(id);

    const approve = stateCli(dir, ["approve", "--yes", id]);
    expect(approve.status, approve.stderr).toBe(0);
    expect(approve.stdout).toContain('program:  "true"');
    expect(approve.stdout).toContain(`args:     ${JSON.stringify(args)}`);
    expect(approve.stdout).toContain(`cwd:      ${JSON.stringify(dir)}`);
    expect(approve.stdout).toMatch(/^approved: /m);

    const run = await server.call("system_exec", { program: "true", args, approvalId: id });
    expect(run.isError, textOf(run)).toBe(false);
    expect((run.structuredContent as Record<string, any>).exitCode).toBe(0);

    const again = await server.call("system_exec", { program: "true", args, approvalId: id });
    expect(textOf(again)).toMatch(/^APPROVAL_REQUIRED: .*is not a pending approval/);
    expect(approvalIdOf(textOf(again))).not.toBe(id);
  });

  it("refuses an approval for a changed argument, and keeps it for the exact call", async () => {
    const id = await requireApproval(["--ask", "one"]);
    expect(stateCli(dir, ["approve", "--yes", id]).status).toBe(0);
    const changed = await server.call("system_exec", {
      program: "true",
      args: ["--ask", "two"],
      approvalId: id,
    });
    expect(textOf(changed)).toMatch(/^APPROVAL_REQUIRED: .*was granted for a different/);
    const exact = await server.call("system_exec", {
      program: "true",
      args: ["--ask", "one"],
      approvalId: id,
    });
    expect(exact.isError, textOf(exact)).toBe(false);
  });

  it("refuses an expired approval", async () => {
    const id = await requireApproval(["--ask", "late"]);
    expect(stateCli(dir, ["approve", "--yes", id]).status).toBe(0);
    const file = path.join(approvalsDir(dir), `${id}.json`);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    stored.expiresAt = new Date(Date.now() - 1_000).toISOString();
    writeFileSync(file, JSON.stringify(stored));
    const late = await server.call("system_exec", {
      program: "true",
      args: ["--ask", "late"],
      approvalId: id,
    });
    expect(textOf(late)).toMatch(/^APPROVAL_REQUIRED: .*has expired/);
  });

  it("deny --yes <id> makes the id never valid", async () => {
    const id = await requireApproval(["--ask", "no"]);
    const deny = stateCli(dir, ["deny", "--yes", id]);
    expect(deny.status, deny.stderr).toBe(0);
    expect(deny.stdout).toMatch(/^denied: /m);
    const refused = await server.call("system_exec", {
      program: "true",
      args: ["--ask", "no"],
      approvalId: id,
    });
    expect(textOf(refused)).toMatch(/^APPROVAL_REQUIRED: .*was denied/);
    // A decided id cannot be approved afterwards.
    const late = stateCli(dir, ["approve", "--yes", id]);
    expect(late.status).toBe(1);
    expect(late.stderr).toMatch(/APPROVAL_NOT_FOUND: .*already denied/);
  });

  it("exec answers APPROVAL_REQUIRED too, and runs once with --approval-id", async () => {
    const manifestFile = path.join(dir, "manifest.json");
    const exec = (extra: string[]) =>
      stateCli(dir, [
        "exec",
        "--manifest",
        manifestFile,
        "--root",
        dir,
        ...extra,
        "true",
        "--ask",
        "cli",
      ]);
    const first = exec([]);
    // A tool error: nothing ran (SPEC §13, exit 125); the CLI's words name its own flag.
    expect(first.status).toBe(125);
    expect(first.stderr).toMatch(/APPROVAL_REQUIRED: true: /);
    const id = approvalIdOf(first.stderr);
    expect(first.stderr).toContain(
      `run "system-command-mcp approve ${id}" in a terminal, then call again with --approval-id ${id}`,
    );
    expect(first.stderr).not.toContain("approvalId");
    const approve = stateCli(dir, ["approve", "--yes", id]);
    expect(approve.status).toBe(0);
    expect(approve.stdout).toContain(`--approval-id ${id}`);
    const approved = exec(["--approval-id", id]);
    expect(approved.status, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout).exitCode).toBe(0);
    const reused = exec(["--approval-id", id]);
    expect(reused.status).toBe(125);
    expect(reused.stderr).toMatch(/^system-command-mcp: APPROVAL_REQUIRED: /);
    expect(reused.stderr).toContain(`(--approval-id "${id}" is not a pending approval)`);
  });

  it("approve without a terminal and without --yes → TTY_REQUIRED (exit 2); unknown id → exit 1", async () => {
    const id = await requireApproval(["--ask", "tty"]);
    const noTty = stateCli(dir, ["approve", id]);
    expect(noTty.status).toBe(2);
    expect(noTty.stderr).toMatch(/^system-command-mcp: TTY_REQUIRED: /);
    const stored = JSON.parse(readFileSync(path.join(approvalsDir(dir), `${id}.json`), "utf8"));
    expect(stored.status).toBe("pending");
    const unknown = stateCli(dir, ["approve", "--yes", "0".repeat(32)]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/APPROVAL_NOT_FOUND/);
  });
});
