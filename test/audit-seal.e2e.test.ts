// The sealed audit log through the real server and CLI (SPEC §22.1): servers started before
// `audit seal` pick the seal up, two servers seal one log concurrently, exec-start precedes each
// exec (also a failed start's), a writer that stopped between its two fsyncs is reconciled, and
// the seal state is checked: missing, forged, rolled back, copied elsewhere (--state), replaced.

import { createHmac, randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { defaultManifest } from "./helpers/server.js";
import { auditServer, cliAs, closeAndWait, records, seal, session } from "./audit-helpers.js";

type Json = Record<string, any>;

const evolve = (key: Buffer) => createHmac("sha256", key).update("evolve").digest();
/** The key sealing `index`, derived from the verification key as the SPEC says. */
function keyFor(verificationKey: string, index: number): Buffer {
  let key = evolve(Buffer.from(verificationKey, "hex"));
  for (let i = 0; i < index; i++) key = evolve(key);
  return key;
}
const stateOf = (log: string) =>
  JSON.parse(readFileSync(`${log}.seal`, "utf8")) as { index: number; key: string };
const writeState = (file: string, index: number, key: Buffer | string) =>
  writeFileSync(
    file,
    JSON.stringify({ index, key: typeof key === "string" ? key : key.toString("hex") }) + "\n",
  );

describe("sealing with servers that run", () => {
  const [identity] = identities();
  let attack: AttackDir;
  let log: string;
  let key: string;

  beforeAll(() => {
    attack = attackDir(identity!, "scm-audit-sealing-");
    log = path.join(attack.mkdir("logs"), "audit.jsonl");
  });
  afterAll(() => attack?.remove());

  it("two servers started before `audit seal` both seal their records into one gapless sequence", async () => {
    const a = await auditServer(attack, identity!, log);
    const b = await auditServer(attack, identity!, log);
    try {
      expect((await a.call("system_environment")).structuredContent).toMatchObject({
        audit: { path: log, sealed: false, syslog: null },
      });
      key = seal(attack, log);
      expect(statSync(`${log}.seal`).mode & 0o777).toBe(0o600);
      expect((await b.call("system_environment")).structuredContent).toMatchObject({
        audit: { sealed: true },
      });
      const calls = [];
      for (let n = 0; n < 4; n++) {
        calls.push(
          a.exec({ program: "true" }),
          b.exec({ program: "node", args: ["-e", `process.exit(${n})`] }),
        );
      }
      const results = await Promise.all(calls);
      expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0, 1, 0, 2, 0, 3]);
    } finally {
      await closeAndWait(a);
      await closeAndWait(b);
    }
    const all = records(log);
    const sealed = all.filter((r) => r.seal !== undefined);
    expect(all.slice(0, 2).map((r) => [r.event, r.seal])).toEqual([
      ["chain-start", undefined],
      ["chain-start", undefined],
    ]);
    expect(sealed.map((r) => r.seal.index)).toEqual(sealed.map((_, i) => i));
    expect(sealed.length).toBe(all.length - 2);
    expect(new Set(sealed.map((r) => r.chain)).size).toBe(2);
    expect(stateOf(log).index).toBe(sealed.length);
    const run = cliAs(attack, ["audit", "verify", log, "--key", key]);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/2 record\(s\) before the seal began are not covered by it/);
  }, 60_000);

  it("writes exec-start before each exec with the same facts, and the exec of a failed start carries its code", async () => {
    const script = path.join(attack.dir, "vanishing.sh");
    writeFileSync(script, "#!/bin/sh\nexit 0\n");
    chmodSync(script, 0o755);
    const manifest = defaultManifest({ vanishing: { candidates: [script] } }) as Json;
    const server = await auditServer(attack, identity!, log, manifest);
    try {
      await server.exec({ program: "cat", args: ["-"], input: "x" });
      rmSync(script);
      const failed = await server.call("system_exec", { program: "vanishing" });
      expect(failed.isError).toBe(true);
      expect(JSON.stringify(failed.content)).toMatch(/SPAWN_FAILED/);
    } finally {
      await closeAndWait(server);
    }
    const all = records(log);
    const execs = all.filter((r) => r.event === "exec");
    for (const exec of execs) {
      const startAt = all.findIndex(
        (r) => r.event === "exec-start" && r.executionId === exec.executionId,
      );
      expect(startAt).toBeGreaterThanOrEqual(0);
      expect(startAt).toBeLessThan(all.indexOf(exec));
      const start = all[startAt]!;
      for (const field of [
        "client",
        "program",
        "executable",
        "argsDigest",
        "cwd",
        "sandbox",
        "decision",
        "chain",
      ]) {
        expect(start[field], field).toEqual(exec[field]);
      }
      expect(start.exitCode).toBeUndefined();
    }
    const vanished = execs.find((r) => r.program === "vanishing")!;
    expect(vanished).toMatchObject({ error: "SPAWN_FAILED", exitCode: null, signal: null });
    expect(execs.find((r) => r.program === "cat")).toMatchObject({
      exitCode: 0,
      stdout: { bytes: 1 },
    });
    expect(cliAs(attack, ["audit", "verify", log, "--key", key]).status).toBe(0);
  }, 60_000);

  it("reconciles a writer that stopped between its two fsyncs (the state one behind the log)", async () => {
    const { index } = stateOf(log);
    writeState(`${log}.seal`, index - 1, keyFor(key, index - 1)); // the last record is in, the state did not advance
    const behind = cliAs(attack, ["audit", "verify", log, "--key", key]);
    expect(behind.status, behind.stdout).toBe(0);
    expect(behind.stdout).toMatch(/the seal state is one record behind the log/);
    await session(attack, identity!, log);
    const sealed = records(log).filter((r) => r.seal !== undefined);
    expect(sealed.map((r) => r.seal.index)).toEqual(sealed.map((_, i) => i)); // no index used twice
    const after = cliAs(attack, ["audit", "verify", log, "--key", key]);
    expect(after.status, after.stdout).toBe(0);
    expect(after.stdout).not.toMatch(/one record behind/);
  }, 60_000);

  it("verifies a copy elsewhere with --state, and fails a copy whose state is missing", () => {
    const elsewhere = attack.mkdir("elsewhere");
    const copy = path.join(elsewhere, "copy.jsonl");
    copyFileSync(log, copy);
    copyFileSync(`${log}.seal`, path.join(elsewhere, "state-copy"));
    const withState = cliAs(attack, [
      "audit",
      "verify",
      copy,
      "--key",
      key,
      "--state",
      path.join(elsewhere, "state-copy"),
    ]);
    expect(withState.status, withState.stdout).toBe(0);
    const without = cliAs(attack, ["audit", "verify", copy, "--key", key]);
    expect(without.status).toBe(1);
    expect(without.stdout).toMatch(/the seal state .*copy\.jsonl\.seal is missing/);
  });

  it("refuses a second seal without --force; --force starts a new seal the old key no longer verifies", async () => {
    const before = readFileSync(`${log}.seal`, "utf8");
    const again = cliAs(attack, ["audit", "seal", log]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/AUDIT_SEAL_EXISTS: .*already exists.*--force/);
    expect(readFileSync(`${log}.seal`, "utf8")).toBe(before);
    const fresh = seal(attack, log, ["--force"]);
    expect(fresh).not.toBe(key);
    await session(attack, identity!, log);
    const run = cliAs(attack, ["audit", "verify", log, "--key", fresh]);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/sealed under an earlier seal \(replaced with --force\)/);
    const old = cliAs(attack, ["audit", "verify", log, "--key", key]);
    expect(old.status).toBe(1);
  }, 60_000);

  it("rejects a --key that is not 64 hex characters", () => {
    const run = cliAs(attack, ["audit", "verify", log, "--key", "abc"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/INVALID_OPTION: --key expects the 64 hex characters/);
  });
});

describe.each(identities())("a seal state edited as $name", (identity) => {
  let attack: AttackDir;
  let log: string;
  let key: string;
  let early: string;
  let earlyLog: string;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-audit-state-");
    log = path.join(attack.mkdir("logs"), "audit.jsonl");
    key = seal(attack, log);
    await session(attack, identity, log);
    early = readFileSync(`${log}.seal`, "utf8"); // what an attacker copied at this moment
    earlyLog = readFileSync(log, "utf8");
    await session(attack, identity, log);
  }, 60_000);
  afterAll(() => attack?.remove());

  /** A copy of the log with the given state beside it, written by the identity. */
  function variant(name: string, state: string, logText?: string): string {
    const dir = attack.mkdir(name);
    const copy = path.join(dir, "audit.jsonl");
    writeFileSync(path.join(attack.dir, `${name}.state`), state);
    writeFileSync(path.join(attack.dir, `${name}.log`), logText ?? readFileSync(log, "utf8"));
    for (const [from, to] of [
      [`${name}.log`, copy],
      [`${name}.state`, `${copy}.seal`],
    ] as const) {
      const run = attack.run("cp", [path.join(attack.dir, from), to]);
      expect(run.status, run.stderr).toBe(0);
    }
    return copy;
  }

  it("fails a forged state (a key not derived from K for its index)", () => {
    const { index } = stateOf(log);
    const copy = variant("forged", JSON.stringify({ index, key: randomBytes(32).toString("hex") }));
    const run = cliAs(attack, ["audit", "verify", copy, "--key", key]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /the seal state's key is not the one derived from K for its index \d+: the state was forged/,
    );
  });

  it("fails a state restored from an earlier copy while the log goes on (rolled back)", () => {
    const copy = variant("rolled-back", early);
    const run = cliAs(attack, ["audit", "verify", copy, "--key", key]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/the state was rolled back/);
  });

  it("cannot tell an earlier state restored together with a log cut back to that point (the documented limit)", () => {
    const copy = variant("restored", early, earlyLog);
    const run = cliAs(attack, ["audit", "verify", copy, "--key", key]);
    expect(run.status, run.stdout).toBe(0); // docs/rules-and-audit.md: that is what the syslog copy is for
  });

  it("fails a missing state", () => {
    const dir = attack.mkdir("stateless");
    const copy = path.join(dir, "audit.jsonl");
    expect(attack.run("cp", [log, copy]).status).toBe(0);
    const run = cliAs(attack, ["audit", "verify", copy, "--key", key]);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/is missing/);
  });
});
