// Issue 23: edits of an audit log by a program of the log's own user. The plain hash chain (§22)
// accepts every one of them (each test shows it still does without --key); the sealed log (§22.1)
// makes `audit verify --key` exit 1 naming the first bad line or the missing index. Each attack
// runs as root and as an unprivileged user, the edits made by a program of that user.

import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { FIXTURES, eventually } from "./helpers/server.js";
import { auditServer, cliAs, copyOf, records, seal, session } from "./audit-helpers.js";

const TAMPER = path.join(FIXTURES, "audit-tamper.cjs");
const KILL_AND_CUT = path.join(FIXTURES, "audit-kill-and-cut.cjs");
const SESSIONS = 3;

/** Each edit, the line `verify --key` must name first (1-based; "last" = the log's last line), and what it says. */
const EDITS: { mode: string; line: (log: Record<string, any>[]) => number; says: RegExp }[] = [
  {
    mode: "rewrite", // (a)
    line: (log) => log.findIndex((r) => r.event === "exec" && r.chain === log[0]!.chain) + 1,
    says: /does not verify under the key derived from K: the line was changed or forged/,
  },
  { mode: "replace", line: () => 1, says: /does not verify under the key derived from K/ }, // (b)
  {
    mode: "drop-session",
    line: () => 1,
    says: /seal index \d+ where 0 was expected: the records with index 0–\d+ were removed/,
  }, // (c)
  {
    mode: "cut-end",
    line: (log) => log.length - 2,
    says: /the seal state has reached index \d+: the records with index \d+–\d+ were cut off/,
  }, // (d)
  {
    mode: "reorder",
    line: (log) => log.findIndex((r, n) => n > 0 && r.chain !== log[n - 1]!.chain),
    says: /seal index \d+ where \d+ was expected/,
  },
];

describe.each(identities())("edits of a sealed log as $name", (identity) => {
  let attack: AttackDir;
  let log: string;
  let key: string;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-audit-seal-");
    log = path.join(attack.mkdir("logs"), "audit.jsonl");
    key = seal(attack, log);
    for (let n = 0; n < SESSIONS; n++) await session(attack, identity, log);
  }, 120_000);
  afterAll(() => attack?.remove());

  /** Applies one edit, as the identity, to a copy of the log (and of its seal state). */
  const edited = (mode: string): string => {
    const copy = copyOf(attack, log, `${mode}.jsonl`);
    copyOf(attack, `${log}.seal`, `${mode}.jsonl.seal`);
    const run = attack.run(process.execPath, [TAMPER, mode, copy]);
    expect(run.status, run.stderr).toBe(0);
    return copy;
  };

  it("the untouched sealed log verifies with its key", () => {
    const run = cliAs(attack, ["audit", "verify", log, "--key", key]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/every seal verifies/);
    const sealed = records(log).map((r) => r.seal?.index);
    expect(sealed).toEqual(sealed.map((_, i) => i)); // every record sealed, 0, 1, 2, … in file order
  });

  it.each(EDITS)(
    "the edit $mode passes the chain check and fails verify --key",
    ({ mode, line, says }) => {
      const before = records(log);
      const copy = edited(mode);
      const plain = cliAs(attack, ["audit", "verify", copy]);
      expect(plain.status, plain.stdout + plain.stderr).toBe(0);
      expect(plain.stdout).toMatch(/without --key only the hash chains are checked/);
      const keyed = cliAs(attack, ["audit", "verify", copy, "--key", key]);
      expect(keyed.status, keyed.stdout).toBe(1);
      const expectedLine = mode === "cut-end" ? records(copy).length : line(before);
      expect(keyed.stdout).toMatch(
        new RegExp(`FAILED: \\d+ problem\\(s\\), the first at line ${expectedLine}\\n`),
      );
      expect(keyed.stdout).toMatch(says);
      expect(keyed.stderr).toMatch(new RegExp(`AUDIT_SEAL_BROKEN: .* line ${expectedLine}: `));
    },
  );

  it("(e) a run that kills the server and cuts its own records off is caught: the state is ahead of the log", async () => {
    const victim = copyOf(attack, log, "victim.jsonl");
    copyOf(attack, `${log}.seal`, "victim.jsonl.seal");
    const marker = path.join(attack.dir, "cut-done");
    const server = await auditServer(attack, identity, victim);
    const call = server.call("system_exec", {
      program: "node",
      args: [KILL_AND_CUT, victim, marker],
    });
    await call.catch(() => undefined); // the connection dies with the server
    expect(await eventually(() => existsSync(marker))).toBe(true);
    // Cut back to the new chain's chain-start: the killing run's exec-start (written and sealed
    // before the spawn) is gone, and no exec record was ever written.
    const left = records(victim);
    expect(left.length).toBe(records(log).length + 1);
    expect(left.at(-1)!.event).toBe("chain-start");
    const plain = cliAs(attack, ["audit", "verify", victim]);
    expect(plain.status, plain.stdout + plain.stderr).toBe(0);
    const keyed = cliAs(attack, ["audit", "verify", victim, "--key", key]);
    expect(keyed.status, keyed.stdout).toBe(1);
    expect(keyed.stdout).toMatch(
      /the seal state has reached index \d+: the records with index \d+–\d+ were cut off/,
    );
  });
});
