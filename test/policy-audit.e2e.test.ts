// The audit log through the real server (SPEC §22): a session's records and their fields, args
// as a digest or in full, the stdout hash equal to the artifact's bytes, `audit verify` on intact
// and tampered logs, two servers on one file, and a log that cannot be written.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY, configuredArgs, removeDir, tempDir } from "./helpers/server.js";
import { askManifest, startPolicyServer, stateCli, stateEnv, textOf } from "./policy-helpers.js";

type Json = Record<string, any>;

const SECRET_VALUE = "s3cr3t-env-value-never-logged";
const OUTPUT_MARKER = "output-content-never-logged";
const INPUT_TEXT = "input-content-never-logged";
const BIG_OUTPUT_BYTES = 40_000; // past the 32 KiB inline maximum: the artifact is published

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

function manifest(extra: Json = {}): Json {
  const value = askManifest(extra);
  value.environment = { set: { AUDIT_TEST_SECRET: SECRET_VALUE } };
  return value;
}

function records(file: string): Json[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Json);
}

/** A copy of `file` whose lines went through `edit`. */
function tampered(file: string, target: string, edit: (lines: string[]) => string[]): string {
  const lines = readFileSync(file, "utf8").split("\n");
  lines.pop(); // the empty string after the final newline
  writeFileSync(target, edit(lines).join("\n") + "\n");
  return target;
}

describe("the audit log of one session", () => {
  let dir: string;
  let log: string;
  let manifestFile: string;
  const results: Json = {};

  beforeAll(async () => {
    dir = tempDir();
    log = path.join(dir, "logs", "nested", "audit.jsonl");
    const args = configuredArgs(dir, manifest(), ["--audit-log", log]);
    manifestFile = args[1]!;
    const server = await startPolicyServer({
      args,
      env: stateEnv(dir),
      elicitation: async () => ({ action: "accept", content: { decision: "run" } }),
    });
    try {
      const big = `process.stdout.write(${JSON.stringify(OUTPUT_MARKER)}.padEnd(${BIG_OUTPUT_BYTES}, "x"))`;
      results.allowed = await server.call("system_exec", {
        program: "cat",
        args: ["-"],
        input: INPUT_TEXT,
      });
      results.big = await server.call("system_exec", { program: "node", args: ["-e", big] });
      results.denied = await server.call("system_exec", { program: "node", args: ["-p", "1"] });
      results.approved = await server.call("system_exec", { program: "true", args: ["--ask"] });
      const id = (results.big.structuredContent as Json).artifact.id as string;
      const chunks: Buffer[] = [];
      for (let offset = 0, eof = false; !eof;) {
        const page = (
          await server.call("system_output", { id, stream: "stdout", offset, encoding: "base64" })
        ).structuredContent as Json;
        chunks.push(Buffer.from(page.base64 as string, "base64"));
        offset = page.nextOffset;
        eof = page.eof;
      }
      results.artifactBytes = Buffer.concat(chunks);
      results.environment = (await server.call("system_environment")).structuredContent;
    } finally {
      await server.close();
    }
  });

  afterAll(() => {
    if (dir) removeDir(dir);
  });

  it("creates the file 0600 in a new 0700 directory and reports it in system_environment", () => {
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(log)).mode & 0o777).toBe(0o700);
    expect(results.environment.audit).toEqual({
      path: log,
      args: "digest",
      sealed: false,
      syslog: null,
    });
  });

  it("records chain-start, exec-start and exec, denied, approval, chain-end with chain, seq and prev", () => {
    const all = records(log);
    expect(all.map((r) => r.event)).toEqual([
      "chain-start",
      "exec-start",
      "exec",
      "exec-start",
      "exec",
      "denied",
      "approval",
      "exec-start",
      "exec",
      "chain-end",
    ]);
    const lines = readFileSync(log, "utf8").split("\n");
    all.forEach((record, index) => {
      expect(Object.keys(record).slice(0, 5)).toEqual(["event", "ts", "chain", "seq", "prev"]);
      expect(record.chain).toBe(all[0]!.chain);
      expect(record.chain).toMatch(/^[0-9a-f]{32}$/);
      expect(record.seq).toBe(index);
      expect(record.prev).toBe(index === 0 ? null : sha256(lines[index - 1]!));
      expect(new Date(record.ts).toISOString()).toBe(record.ts);
    });
  });

  it("chain-start: server version, pid, start time, mode, manifest path and sha256, Roots", () => {
    const start = records(log)[0]!;
    expect(start.serverVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isInteger(start.pid)).toBe(true);
    expect(Date.parse(start.startTime)).toBeLessThanOrEqual(Date.parse(start.ts));
    expect(start.mode).toBe("configured");
    expect(start.manifest).toEqual({
      path: manifestFile,
      sha256: sha256(readFileSync(manifestFile)),
    });
    expect(start.roots).toEqual([dir]);
  });

  it("exec: client, program, executable, argsDigest, cwd, decision, exit, streams, artifact", () => {
    const [first, big, approved] = records(log).filter((r) => r.event === "exec");
    const allowed = results.allowed.structuredContent as Json;
    expect(first).toMatchObject({
      executionId: allowed.executionId,
      client: { name: "scm-policy-tests", version: "1.2.3" },
      program: "cat",
      executable: allowed.programSelection.executable,
      argsDigest: sha256(JSON.stringify(["-"])),
      cwd: dir,
      decision: "allow",
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      stdout: { bytes: INPUT_TEXT.length, sha256: sha256(INPUT_TEXT) },
      stderr: { bytes: 0, sha256: sha256("") },
      artifact: null,
    });
    expect(first!.args).toBeUndefined();
    expect(Number.isInteger(first!.durationMs)).toBe(true);
    expect(first).toHaveProperty("sandbox");
    expect(approved).toMatchObject({ program: "true", decision: "approved", exitCode: 0 });
    // The stdout hash, computed while streaming, equals the hash of the published artifact.
    const bigResult = results.big.structuredContent as Json;
    expect(big!.artifact).toBe(bigResult.artifact.id);
    expect(results.artifactBytes.length).toBe(BIG_OUTPUT_BYTES);
    expect(big!.stdout).toEqual({ bytes: BIG_OUTPUT_BYTES, sha256: sha256(results.artifactBytes) });
  });

  it("denied and approval records", () => {
    const all = records(log);
    expect(textOf(results.denied)).toMatch(/^ARGUMENTS_DENIED/);
    expect(all.find((r) => r.event === "denied")).toMatchObject({
      rule: 0,
      reason: "no printing one-liners",
      program: "node",
      argsDigest: sha256(JSON.stringify(["-p", "1"])),
      cwd: dir,
    });
    const approval = all.find((r) => r.event === "approval")!;
    expect(approval).toMatchObject({ outcome: "approved", via: "elicitation" });
    expect(approval.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("never holds environment values, input or output content", () => {
    const text = readFileSync(log, "utf8");
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain(INPUT_TEXT);
    expect(text).not.toContain(OUTPUT_MARKER);
  });

  it("audit verify passes; audit tail prints the last events, --json the raw lines", () => {
    const verify = stateCli(dir, ["audit", "verify", log]);
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/closed/);
    expect(verify.stdout).toMatch(/^ok: 10 lines in 1 chain/m);
    const tail = stateCli(dir, ["audit", "tail", "-n", "4", log]);
    expect(tail.status).toBe(0);
    const shown = tail.stdout.trimEnd().split("\n");
    expect(shown).toHaveLength(4);
    expect(shown[0]).toMatch(/ approval .*approved via elicitation/);
    expect(shown[1]).toMatch(/ exec-start .*"true" argsDigest [0-9a-f]{12} in .*, approved/);
    expect(shown[2]).toMatch(/ exec .*"true" argsDigest [0-9a-f]{12} in .* → exit 0.* approved/);
    expect(shown[3]).toMatch(/ chain-end /);
    const raw = stateCli(dir, ["audit", "tail", "-n", "2", "--json", log]);
    const lines = readFileSync(log, "utf8").trimEnd().split("\n");
    expect(raw.stdout).toBe(lines.slice(-2).join("\n") + "\n");
  });

  describe("audit verify on a changed log", () => {
    it("one changed byte of a middle line: the successor is named", () => {
      const copy = tampered(log, path.join(dir, "changed.jsonl"), (lines) => {
        lines[2] = lines[2]!.replace('"exitCode":0', '"exitCode":1');
        return lines;
      });
      const run = stateCli(dir, ["audit", "verify", copy]);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/^line 4: prev is not the sha256 of line 3/m);
      expect(run.stderr).toMatch(/AUDIT_CHAIN_BROKEN: .* line 4: /);
    });

    it("a changed byte that breaks the JSON: the changed line and its successor", () => {
      const copy = tampered(log, path.join(dir, "broken.jsonl"), (lines) => {
        lines[2] = "x" + lines[2]!.slice(1);
        return lines;
      });
      const run = stateCli(dir, ["audit", "verify", copy]);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/^line 3: not a JSON record/m);
      expect(run.stdout).toMatch(/^line 4: /m);
      expect(run.stderr).toMatch(/ line 3: /);
    });

    it("a removed line: the line after it is named", () => {
      const copy = tampered(log, path.join(dir, "removed.jsonl"), (lines) =>
        lines.filter((_, index) => index !== 3),
      );
      const run = stateCli(dir, ["audit", "verify", copy]);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/^line 4: seq 4 follows seq 2 .*removed/m);
    });

    it("a truncated last line is named", () => {
      const copy = path.join(dir, "truncated.jsonl");
      const bytes = readFileSync(log);
      writeFileSync(copy, bytes.subarray(0, bytes.length - 10));
      const run = stateCli(dir, ["audit", "verify", copy]);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/^line 10: truncated/m);
    });

    it("a chain without chain-end verifies, reported as open", () => {
      const copy = tampered(log, path.join(dir, "open.jsonl"), (lines) => lines.slice(0, -1));
      const run = stateCli(dir, ["audit", "verify", copy]);
      expect(run.status, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/open \(no chain-end/);
    });
  });
});

describe("audit settings and several servers", () => {
  let dir: string;

  beforeAll(() => {
    dir = tempDir();
  });

  afterAll(() => {
    if (dir) removeDir(dir);
  });

  it('args "full" records the arguments; --audit-log wins for the path, audit.args still applies', async () => {
    const manifestPath = path.join(dir, "unused.jsonl");
    const flagPath = path.join(dir, "flag.jsonl");
    const value = manifest({ audit: { path: manifestPath, args: "full" } });
    const server = await startPolicyServer({
      args: configuredArgs(dir, value, ["--audit-log", flagPath]),
      env: stateEnv(dir),
    });
    try {
      await server.call("system_exec", { program: "true", args: ["a b", '"c"'] });
      await server.call("system_exec", { program: "node", args: ["-p", "1"] });
    } finally {
      await server.close();
    }
    expect(existsSync(manifestPath)).toBe(false);
    const all = records(flagPath);
    const exec = all.find((r) => r.event === "exec")!;
    expect(exec.args).toEqual(["a b", '"c"']);
    expect(exec.argsDigest).toBeUndefined();
    expect(all.find((r) => r.event === "denied")!.args).toEqual(["-p", "1"]);
  });

  it("two servers appending to one file verify as two chains", async () => {
    const shared = path.join(dir, "shared.jsonl");
    const start = (sub: string) => {
      const home = path.join(dir, sub);
      mkdirSync(home);
      return startPolicyServer({
        args: configuredArgs(home, manifest(), ["--audit-log", shared]),
        env: stateEnv(home),
      });
    };
    const a = await start("a");
    const b = await start("b");
    try {
      await a.call("system_exec", { program: "true" });
      await b.call("system_exec", { program: "true" });
      await a.call("system_exec", { program: "node", args: ["-p", "1"] });
      await b.call("system_exec", { program: "true" });
    } finally {
      await a.close();
      await b.close();
    }
    const all = records(shared);
    const chains = [...new Set(all.map((r) => r.chain))];
    expect(chains).toHaveLength(2);
    // Interleaved: the second chain starts before the first one ends.
    expect(all.findIndex((r) => r.chain === chains[1])).toBeLessThan(
      all.findIndex((r) => r.event === "chain-end"),
    );
    const run = stateCli(dir, ["audit", "verify", shared]);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ok: \d+ lines in 2 chain/m);
  });

  it("a log that cannot be opened stops startup with AUDIT_UNAVAILABLE (exit 1)", () => {
    const blocker = path.join(dir, "a-file");
    writeFileSync(blocker, "");
    const run = spawnSync(
      process.execPath,
      [
        CLI_ENTRY,
        "serve",
        ...configuredArgs(dir, manifest(), ["--audit-log", path.join(blocker, "audit.jsonl")]),
      ],
      { encoding: "utf8", timeout: 30_000, env: stateEnv(dir), input: "" },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^system-command-mcp: AUDIT_UNAVAILABLE: /m);
    expect(run.stdout).toBe("");
  });

  it("a write that fails later refuses the next call with AUDIT_UNAVAILABLE, spawning nothing", async () => {
    // The server runs under a 1 KiB file-size limit (RLIMIT_FSIZE; Node ignores SIGXFSZ): the
    // chain-start fits, the first exec record does not, so the log can no longer be written.
    const home = path.join(dir, "limited");
    mkdirSync(home);
    const log = path.join(home, "audit.jsonl");
    const args = configuredArgs(home, manifest(), ["--audit-log", log]);
    const server = await startPolicyServer({
      args,
      env: stateEnv(home),
      command: {
        command: "/bin/sh",
        args: [
          "-c",
          'ulimit -f 2 && exec "$0" "$@"',
          process.execPath,
          CLI_ENTRY,
          "serve",
          ...args,
        ],
      },
    });
    try {
      const first = await server.call("system_exec", { program: "true" });
      expect(first.isError).toBe(false); // it ran; its record could not be written
      const marker = path.join(home, "marker");
      const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
      const second = await server.call("system_exec", { program: "node", args: ["-e", script] });
      expect(second.isError).toBe(true);
      expect(textOf(second)).toMatch(
        /^AUDIT_UNAVAILABLE: .*short write|^AUDIT_UNAVAILABLE: .*failed/,
      );
      expect(existsSync(marker)).toBe(false);
      expect(server.stderr()).toMatch(/audit log failed/);
    } finally {
      await server.close();
    }
  });
});
