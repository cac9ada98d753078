// The seal lock (SPEC §22.1; docs/rules-and-audit.md "The lock"): a lock left by a process that is
// gone (here: a live pid with another start time, i.e. a reused pid) and a planted directory are
// broken by the next writer; a lock held by a live process is never broken: the writer waits out
// SEAL_LOCK_TIMEOUT_MS and the call fails closed (AUDIT_UNAVAILABLE) with nothing spawned.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { startTicks } from "./helpers/proc.js";
import { SEAL_LOCK_TIMEOUT_MS } from "../src/policy/seal-lock.js";
import { auditServer, cliAs, closeAndWait, records, seal, session } from "./audit-helpers.js";

describe.skipIf(process.platform !== "linux")("the seal lock", () => {
  const [identity] = identities();
  let attack: AttackDir;
  let log: string;
  let key: string;
  let lock: string;
  const sleeper = spawn("sleep", ["60"], { stdio: "ignore" });

  beforeAll(() => {
    attack = attackDir(identity!, "scm-audit-lock-");
    log = path.join(attack.mkdir("logs"), "audit.jsonl");
    key = seal(attack, log);
    lock = `${log}.seal.lock`;
  });
  afterAll(() => {
    sleeper.kill("SIGKILL");
    attack?.remove();
  });

  const verifies = () => {
    const run = cliAs(attack, ["audit", "verify", log, "--key", key]);
    expect(run.status, run.stdout).toBe(0);
  };

  it("breaks a lock whose owner pid now belongs to a process started at another time", async () => {
    writeFileSync(lock, JSON.stringify({ pid: sleeper.pid, start: "1", nonce: "00" }));
    await session(attack, identity!, log);
    expect(existsSync(lock)).toBe(false);
    expect(records(log).every((r) => r.seal !== undefined)).toBe(true);
    verifies();
  }, 60_000);

  it("breaks a directory planted where the lock goes", async () => {
    mkdirSync(path.join(lock, "inside"), { recursive: true });
    await session(attack, identity!, log);
    expect(existsSync(lock)).toBe(false);
    verifies();
  }, 60_000);

  it("never breaks a live holder's lock: the call waits, then fails closed with nothing spawned", async () => {
    const server = await auditServer(attack, identity!, log);
    const held = JSON.stringify({ pid: sleeper.pid, start: startTicks(sleeper.pid!), nonce: "11" });
    const marker = path.join(attack.dir, "spawned");
    try {
      expect((await server.exec({ program: "true" })).exitCode).toBe(0);
      const before = records(log).length;
      writeFileSync(lock, held);
      const started = Date.now();
      const result = await server.call("system_exec", {
        program: "node",
        args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`],
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(SEAL_LOCK_TIMEOUT_MS - 500);
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(
        /AUDIT_UNAVAILABLE: .*another writer held .*seal\.lock/,
      );
      expect(existsSync(marker)).toBe(false);
      expect(readFileSync(lock, "utf8")).toBe(held); // the live holder's lock is untouched
      expect(records(log).length).toBe(before);
    } finally {
      rmSync(lock, { force: true });
      await closeAndWait(server);
    }
    verifies();
  }, 60_000);
});
