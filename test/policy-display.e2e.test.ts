// What a human is shown cannot lie (SPEC §21.1, issue 22): a cwd named with newlines, terminal
// escapes, U+202E, U+200B, U+2028 and a no-break space — and an argument with an ESC sequence —
// show as one quoted line with \u escapes in approve, deny, the elicitation form and audit tail.

import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredArgs, removeDir, tempDir } from "./helpers/server.js";
import {
  approvalIdOf,
  askManifest,
  startPolicyServer,
  stateCli,
  stateEnv,
  textOf,
} from "./policy-helpers.js";

const EVIL_NAME = "evil\n\u001b[2J\u001b[31mcwd: ~ok\u202eTXT\u200bdir\u2028x\u00a0y";
/** The same name as it must be printed inside the quotes (written out by hand, not computed). */
const EVIL_SHOWN = "evil\\n\\u001b[2J\\u001b[31mcwd: ~ok\\u202eTXT\\u200bdir\\u2028x\\u00a0y";
const EVIL_ARG = "\u001b[1A\u001b[2Kok";
const EVIL_ARG_SHOWN = '"\\u001b[1A\\u001b[2Kok"';
/** Characters that must never reach a terminal raw (a newline only between lines). */
const RAW_HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00a0\u200b\u202e\u2028\u2029]/;

let dir: string;
let evil: string;
let shownCwd: string;

beforeAll(() => {
  dir = tempDir();
  evil = path.join(dir, EVIL_NAME);
  mkdirSync(evil);
  shownCwd = `"${JSON.stringify(dir).slice(1, -1)}/${EVIL_SHOWN}"`;
});

afterAll(() => {
  if (dir) removeDir(dir);
});

describe("approve, deny and audit tail", () => {
  let log: string;
  let server: Awaited<ReturnType<typeof startPolicyServer>>;

  beforeAll(async () => {
    log = path.join(dir, "audit", "audit.jsonl");
    server = await startPolicyServer({
      args: configuredArgs(dir, { ...askManifest(), audit: { args: "full" } }, [
        "--audit-log",
        log,
      ]),
      env: stateEnv(dir),
    });
  });

  afterAll(async () => {
    await server?.close();
  });

  const request = async () => {
    const args = ["--ask", EVIL_ARG];
    const result = await server.call("system_exec", { program: "true", args, cwd: evil });
    expect(textOf(result)).toMatch(/^APPROVAL_REQUIRED: /);
    return { id: approvalIdOf(textOf(result)), args };
  };

  const expectOneQuotedLine = (stdout: string) => {
    expect(stdout).not.toMatch(RAW_HIDDEN);
    const lines = stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("  cwd:"))).toEqual([`  cwd:      ${shownCwd}`]);
    expect(lines.filter((line) => line.startsWith("  args:"))).toEqual([
      `  args:     ["--ask",${EVIL_ARG_SHOWN}]`,
    ]);
  };

  it("approve prints the cwd and every argument as one escaped, quoted line", async () => {
    const { id, args } = await request();
    const approve = stateCli(dir, ["approve", "--yes", id]);
    expect(approve.status, approve.stderr).toBe(0);
    expectOneQuotedLine(approve.stdout);
    // The approved call runs, so audit tail has an exec record with that cwd.
    const run = await server.call("system_exec", {
      program: "true",
      args,
      cwd: evil,
      approvalId: id,
    });
    expect(run.isError, textOf(run)).toBe(false);
  });

  it("deny prints them the same way", async () => {
    const { id } = await request();
    const deny = stateCli(dir, ["deny", "--yes", id]);
    expect(deny.status, deny.stderr).toBe(0);
    expectOneQuotedLine(deny.stdout);
  });

  it("audit tail shows the exec record's cwd and args escaped, one line per record", () => {
    const tail = stateCli(dir, ["audit", "tail", "-n", "50", log]);
    expect(tail.status, tail.stderr).toBe(0);
    expect(tail.stdout).not.toMatch(RAW_HIDDEN);
    const exec = tail.stdout.split("\n").filter((line) => / exec /.test(line));
    expect(exec).toHaveLength(1);
    expect(exec[0]).toContain(`"true" ["--ask",${EVIL_ARG_SHOWN}] in ${shownCwd} → exit 0`);
  });
});

describe("the elicitation form", () => {
  it("shows the cwd and the arguments as escaped, quoted lines", async () => {
    const seen: Record<string, any>[] = [];
    const server = await startPolicyServer({
      args: configuredArgs(dir, askManifest()),
      env: stateEnv(dir),
      elicitation: async (params) => {
        seen.push(params);
        return { action: "decline" };
      },
    });
    try {
      const result = await server.call("system_exec", {
        program: "true",
        args: ["--ask", EVIL_ARG],
        cwd: evil,
      });
      expect(textOf(result)).toMatch(/^APPROVAL_DENIED: /);
    } finally {
      await server.close();
    }
    expect(seen).toHaveLength(1);
    const message: string = seen[0]!.message;
    expect(message).not.toMatch(RAW_HIDDEN);
    const lines = message.split("\n");
    expect(lines).toHaveLength(6);
    expect(lines).toContain(`cwd: ${shownCwd}`);
    expect(lines).toContain(`args: ["--ask",${EVIL_ARG_SHOWN}]`);
  });
});
