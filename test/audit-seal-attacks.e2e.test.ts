// Issue 23: edits of an audit log by a program of the log's own user. The plain hash chain (§22)
// accepts every one of them; the sealed log (§22.1) makes `audit verify --key` exit 1 naming the
// first bad line or the missing index. Each attack runs as root and as an unprivileged user.

import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { FIXTURES, eventually } from "./helpers/server.js";
import { auditServer, cliAs, copyOf, records, session } from "./audit-helpers.js";

const TAMPER = path.join(FIXTURES, "audit-tamper.cjs");
const KILL_AND_CUT = path.join(FIXTURES, "audit-kill-and-cut.cjs");
const SESSIONS = 3;

describe.each(identities())("edits of a log as $name", (identity) => {
  let attack: AttackDir;
  let log: string;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-audit-seal-");
    log = path.join(attack.mkdir("logs"), "audit.jsonl");
    for (let n = 0; n < SESSIONS; n++) await session(attack, identity, log);
  }, 120_000);
  afterAll(() => attack?.remove());

  /** Applies one edit, as the identity, to a copy of the log. */
  const edited = (mode: string): string => {
    const copy = copyOf(attack, log, `${mode}.jsonl`);
    const run = attack.run(process.execPath, [TAMPER, mode, copy]);
    expect(run.status, run.stderr).toBe(0);
    return copy;
  };

  it.each(["rewrite", "replace", "drop-session", "cut-end", "reorder"])(
    "the plain chain check accepts the edit %s",
    (mode) => {
      const copy = edited(mode);
      const plain = cliAs(attack, ["audit", "verify", copy]);
      expect(plain.status, plain.stdout + plain.stderr).toBe(0);
    },
  );

  it("(e) a run that kills the server and cuts the log back leaves a log the chain check accepts", async () => {
    const victim = copyOf(attack, log, "victim.jsonl");
    const marker = path.join(attack.dir, "cut-done");
    const server = await auditServer(attack, identity, victim);
    const call = server.call("system_exec", {
      program: "node",
      args: [KILL_AND_CUT, victim, marker],
    });
    await call.catch(() => undefined); // the connection dies with the server
    expect(await eventually(() => existsSync(marker))).toBe(true);
    expect(
      records(victim).some(
        (r) => r.event === "exec" && r.args === undefined && r.argsDigest === undefined,
      ),
    ).toBe(false);
    const plain = cliAs(attack, ["audit", "verify", victim]);
    expect(plain.status, plain.stdout + plain.stderr).toBe(0);
  });
});
