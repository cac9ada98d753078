// An expired *pending* approval (SPEC §21) can no longer be approved: `approve` refuses it with
// APPROVAL_NOT_FOUND and "expired", the file stays pending, and the call with that id still does
// not run. (The expiry of a *granted* approval is tested in policy-approvals.e2e.test.ts; this one
// pins the check in ApprovalStore.decide — issue 24 mutant, approvals.ts.)

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APPROVAL_VALIDITY_MS } from "../src/policy/constants.js";
import { ApprovalStore } from "../src/policy/approvals.js";
import { isCommandError } from "../src/errors.js";
import { removeDir, tempDir } from "./helpers/server.js";
import {
  approvalIdOf,
  approvalsDir,
  askManifest,
  sharePolicyServer,
  stateCli,
  textOf,
  type PolicyClient,
} from "./policy-helpers.js";

describe("an expired pending approval", () => {
  let dir: string;
  let server: PolicyClient;

  sharePolicyServer(askManifest(), (started, made) => {
    server = started;
    dir = made;
  });

  it("cannot be approved through the CLI, and the call still does not run", async () => {
    const args = ["--ask", "stale"];
    const first = await server.call("system_exec", { program: "true", args });
    expect(textOf(first)).toMatch(/^APPROVAL_REQUIRED: /);
    const id = approvalIdOf(textOf(first));
    const file = path.join(approvalsDir(dir), `${id}.json`);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored.status).toBe("pending");
    stored.expiresAt = new Date(Date.now() - 1_000).toISOString();
    writeFileSync(file, JSON.stringify(stored));

    const approve = stateCli(dir, ["approve", "--yes", id]);
    expect(approve.status).toBe(1);
    expect(approve.stderr).toContain(
      `APPROVAL_NOT_FOUND: approval ${id} expired at ${stored.expiresAt}; ` +
        "ask the agent to call again for a new id",
    );
    expect(JSON.parse(readFileSync(file, "utf8")).status).toBe("pending");

    const late = await server.call("system_exec", { program: "true", args, approvalId: id });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toMatch(/^APPROVAL_REQUIRED: /);
  });
});

describe("ApprovalStore.decide at the expiry boundary", () => {
  it("decides until the last millisecond, and refuses from expiresAt on", () => {
    const dir = tempDir();
    try {
      let now = Date.parse("2026-01-01T00:00:00.000Z");
      const store = new ApprovalStore(path.join(dir, "approvals"), () => now);
      const request = {
        program: "true",
        args: ["x"],
        cwd: dir,
        cwdIdentity: { dev: "1", ino: "2" },
        manifestPath: undefined,
      };
      const early = store.create({ ...request, reason: "r", rule: 0 });
      const late = store.create({ ...request, reason: "r", rule: 0 });
      now += APPROVAL_VALIDITY_MS - 1;
      expect(store.decide(early.id, "approved").status).toBe("approved");
      now += 1;
      let code: string | undefined;
      try {
        store.decide(late.id, "approved");
      } catch (error) {
        code = isCommandError(error) ? `${error.code}: ${error.message}` : String(error);
      }
      expect(code).toBe(
        `APPROVAL_NOT_FOUND: approval ${late.id} expired at ${late.expiresAt}; ` +
          "ask the agent to call again for a new id",
      );
      expect(store.read(late.id)?.status).toBe("pending");
      expect(store.claim(late.id, request)).toEqual({ ok: false, why: "pending" });
    } finally {
      removeDir(dir);
    }
  });
});
