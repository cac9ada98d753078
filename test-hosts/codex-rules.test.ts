// The real Codex CLI through a rule-guarded program (SPEC §21, §22): `codex exec` against a
// loopback mock model calls system_exec with a denied and an approval-needing argument list; the
// model receives the coded ARGUMENTS_DENIED / APPROVAL_DENIED text it can act on, nothing runs, and the
// audit log records the session.

import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

import {
  codexConfigFor,
  codexExecArgs,
  completedToolCalls,
  makeCodexHome,
  runCodex,
} from "./helpers/codex.js";
import type { CodexHome } from "./helpers/codex.js";
import { modelPayload, startMockResponses } from "./helpers/mock-responses.js";
import type { MockResponses } from "./helpers/mock-responses.js";
import { killProcessesMentioning, makeWorkspace, waitForNoProcesses } from "./helpers/server.js";
import type { Workspace } from "./helpers/server.js";

let workspace: Workspace;
let codexHome: CodexHome | undefined;
let mock: MockResponses | undefined;
let auditLog: string;
let marker: string;
let dir: string;

beforeAll(() => {
  // The manifest and the audit log live in a directory of their own, known before the launch.
  dir = realpathSync(mkdtempSync(join(tmpdir(), "sc-codex-rules-")));
  const manifest = join(dir, "manifest.json");
  auditLog = join(dir, "audit.jsonl");
  workspace = makeWorkspace("codex-rules", ["--manifest", manifest, "--audit-log", auditLog]);
  marker = join(dir, "ran");
  writeFileSync(
    manifest,
    JSON.stringify({
      version: 2,
      searchPath: ["/usr/bin", "/bin"],
      programs: {
        git: {
          candidates: ["git"],
          rules: [
            {
              match: { contains: ["push", ["--force", "-f"]] },
              decision: "deny",
              reason: "force pushes rewrite shared history",
            },
          ],
        },
        node: {
          candidates: [process.execPath],
          rules: [
            {
              match: { contains: ["--publish"] },
              decision: "ask",
              reason: "publishing needs a human",
            },
          ],
        },
      },
    }),
  );
});

afterAll(async () => {
  killProcessesMentioning(workspace.root);
  await mock?.close();
  await codexHome?.dispose();
  await workspace?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("shows the model ARGUMENTS_DENIED and an approval error for rule-guarded calls; nothing runs", async () => {
  const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
  mock = await startMockResponses([
    {
      tool: "system_exec",
      args: () => ({ program: "git", args: ["-C", workspace.root, "push", "--force"] }),
    },
    {
      tool: "system_exec",
      args: () => ({ program: "node", args: ["-e", script, "--", "--publish"] }),
    },
  ]);
  codexHome = makeCodexHome(codexConfigFor(workspace.launch, "per-tool"));
  const run = await runCodex(codexHome.dir, codexExecArgs(mock.baseUrl, "run the scripted calls"));
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);

  const calls = completedToolCalls(run.stdout);
  expect(calls.map((call) => call.tool)).toEqual(["system_exec", "system_exec"]);
  for (const call of calls) {
    expect(call.status).toBe("failed");
    expect(call.result?.structured_content ?? null).toBeNull();
  }

  // What the model read: the coded texts, naming the program, the rule and what to do.
  expect(mock.errors).toEqual([]);
  const outputs = (mock.requests.at(-1)?.outputs ?? []).map((entry) => modelPayload(entry.output));
  expect(outputs).toHaveLength(2);
  expect(outputs[0]).toMatch(
    /^ARGUMENTS_DENIED: git: .*rule 0 .*"force pushes rewrite shared history".*nothing ran/,
  );
  // Codex 0.171 declares the elicitation capability, and `codex exec` (no human at hand) declines
  // every elicitation: the ask rule ends as APPROVAL_DENIED, naming the rule and the answer.
  expect(outputs[1]).toMatch(
    /^APPROVAL_DENIED: node: the user did not approve these arguments \(rule 0: "publishing needs a human"; answer: decline\); nothing ran/,
  );
  expect(existsSync(marker)).toBe(false);

  // Codex SIGTERMs the server at exit without waiting for it: the server writes chain-end while it
  // shuts down, so read the log once it is gone.
  expect(await waitForNoProcesses(workspace.root)).toEqual([]);
  // The audit log of the session: the denial, the approval step, a closed chain.
  const records = readFileSync(auditLog, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);
  expect(records.map((r) => r.event)).toEqual(["chain-start", "denied", "approval", "chain-end"]);
  expect(records[1]).toMatchObject({ program: "git", rule: 0 });
  expect(records[2]).toMatchObject({ outcome: "denied", via: "elicitation", detail: "decline" });
});
