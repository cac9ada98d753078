// Running snapshots carry only what is new (SPEC §19 Revision 3): per-stream cursors moved by
// system_exec / system_wait / system_cancel, sinceOffset, a partial last line held back, `full`
// and `since`, and the completed result unchanged — through the real server, against a program
// that prints only when the test tells it to. Every result is validated against the served schema.

import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  errorText,
  FIXTURES,
  removeDir,
  shareServer,
  tempDir,
  type TestServer,
} from "./helpers/server.js";
import { servedSchemaCheck, type ResultCheck } from "./helpers/schema-check.js";
import { executionReportSchema } from "../src/mcp/output-schemas.js";

const ON_DEMAND = path.join(FIXTURES, "on-demand.mjs");

let server: TestServer;
let root: string;
let check: ResultCheck;
const controls: string[] = [];

shareServer(
  {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    programs: { node: { candidates: [process.execPath], policy: { allowBackground: true } } },
  },
  [],
  (started, dir) => {
    server = started;
    root = dir;
  },
);

beforeAll(async () => {
  check = await servedSchemaCheck(server);
});

afterAll(() => controls.forEach(removeDir));

/** A program that prints what each `say()` hands it, and stops on `end()`. */
async function onDemand() {
  const control = tempDir("scm-on-demand-");
  controls.push(control);
  let step = 0;
  const handle = await call("system_exec", {
    program: "node",
    args: [ON_DEMAND, control],
    background: true,
  });
  const executionId = handle.executionId as string;
  return {
    handle,
    executionId,
    say(output: { stdout?: string; stderr?: string }) {
      step += 1;
      // Written whole, then renamed: the printer never reads a half-written step.
      const file = path.join(control, `step-${step}.json`);
      writeFileSync(`${file}.part`, JSON.stringify(output));
      renameSync(`${file}.part`, file);
    },
    end: () => writeFileSync(path.join(control, "end"), ""),
  };
}

/** Calls a tool, checks the result against its served outputSchema, returns structuredContent. */
async function call(tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result: CallToolResult = await server.call(tool, args);
  expect(result.isError, errorText(result)).toBe(false);
  check(tool, result);
  return result.structuredContent as Record<string, any>;
}

/** system_wait until a line of `stream` at or after `fromOffset` matches. */
function waitFor(executionId: string, pattern: string, fromOffset: number, stream = "stdout") {
  return call("system_wait", {
    executionId,
    waitMs: 20_000,
    until: { pattern, stream, fromOffset },
  });
}

const stream = (text: string, totalBytes: number, sinceOffset: number) => ({
  truncated: false,
  totalBytes,
  sinceOffset,
  omittedBytes: 0,
  lossyUtf8: false,
  text,
});

describe("running snapshots carry only what is new (§19 Revision 3)", () => {
  it("moves a cursor per stream across polls; a partial last line waits", async () => {
    const program = await onDemand();
    const { executionId } = program;
    try {
      expect(program.handle.status).toBe("running");
      expect(program.handle.stdout).toEqual(stream("", 0, 0));
      program.say({ stdout: "a1\na2\n" });
      let snap = await waitFor(executionId, "^a2$", 0);
      expect(snap.stdout).toEqual(stream("a1\na2\n", 6, 0));
      expect(snap.stderr).toEqual(stream("", 0, 0));
      // Nothing new: an empty range at the cursor, totalBytes still absolute.
      snap = await call("system_wait", { executionId, waitMs: 0 });
      expect(snap.stdout).toEqual(stream("", 6, 6));
      program.say({ stdout: "a3\npartial" });
      snap = await waitFor(executionId, "^a3$", 6);
      expect(snap.stdout).toEqual(stream("a3\n", 16, 6));
      program.say({ stderr: "e1\n" });
      snap = await waitFor(executionId, "^e1$", 0, "stderr");
      // A range that holds no complete line is shown as it is (a prompt needs no newline).
      expect(snap.stdout).toEqual(stream("partial", 16, 9));
      expect(snap.stderr).toEqual(stream("e1\n", 3, 0));
      program.say({ stdout: " end\nnext" });
      snap = await waitFor(executionId, " end$", 16);
      // Held back: "next" is a partial last line after a complete one.
      expect(snap.stdout).toEqual(stream(" end\n", 25, 16));
      program.say({ stdout: " more\n" });
      snap = await waitFor(executionId, "^next more$", 21);
      expect(snap.stdout).toEqual(stream("next more\n", 31, 21));
      expect(snap.stderr).toEqual(stream("", 3, 3));
    } finally {
      program.end();
    }
    const done = await call("system_wait", { executionId, waitMs: 20_000 });
    // The completed result is the Canonical Result of the whole streams.
    expect(done.status).toBe("completed");
    expect(done.stdout).toEqual({
      truncated: false,
      totalBytes: 31,
      omittedBytes: 0,
      lossyUtf8: false,
      text: "a1\na2\na3\npartial end\nnext more\n",
    });
    expect(done.stderr.text).toBe("e1\n");
  });

  it("full: true shows everything so far, since starts where asked; both move the cursor", async () => {
    const program = await onDemand();
    const { executionId } = program;
    try {
      program.say({ stdout: "one\ntwo\nthree\n" });
      await waitFor(executionId, "^three$", 0);
      const full = await call("system_wait", { executionId, waitMs: 0, full: true });
      expect(full.stdout).toEqual(stream("one\ntwo\nthree\n", 14, 0));
      const after = await call("system_wait", { executionId, waitMs: 0 });
      expect(after.stdout).toEqual(stream("", 14, 14));
      const since = await call("system_wait", { executionId, waitMs: 0, since: { stdout: 4 } });
      expect(since.stdout).toEqual(stream("two\nthree\n", 14, 4));
      // stderr was not named in since: its range starts at its own cursor.
      expect(since.stderr).toEqual(stream("", 0, 0));
      program.say({ stdout: "four\n" });
      const next = await waitFor(executionId, "^four$", 14);
      expect(next.stdout).toEqual(stream("four\n", 19, 14));
    } finally {
      program.end();
    }
    await call("system_wait", { executionId, waitMs: 20_000 });
  });

  it("a range larger than its share is cut, partial last line included; omittedFrom pages the gap", async () => {
    const program = await onDemand();
    const { executionId } = program;
    const big = Buffer.alloc(40_000, "0123456789abcdefghijklmnopqrstuvwxyz-").toString();
    try {
      program.say({ stdout: "first\n" });
      await waitFor(executionId, "^first$", 0);
      program.say({ stdout: `${big}\nline\nno newline yet` });
      const snap = await waitFor(executionId, "^line$", 6);
      const out = snap.stdout;
      const total = 6 + big.length + "\nline\nno newline yet".length;
      expect(out).toMatchObject({ truncated: true, totalBytes: total, sinceOffset: 6 });
      expect(Object.keys(out)).toEqual([
        "truncated",
        "totalBytes",
        "sinceOffset",
        "omittedBytes",
        "omittedFrom",
        "lossyUtf8",
        "text",
      ]);
      // The range is larger than the share, so the partial last line is shown (at the end).
      expect(out.text.endsWith("line\nno newline yet")).toBe(true);
      expect(out.text.startsWith(big.slice(0, 100))).toBe(true);
      const [head, tail] = (out.text as string).split(
        `\n[... ${out.omittedBytes} bytes omitted ...]\n`,
      );
      expect(out.omittedFrom).toBe(6 + Buffer.byteLength(head!));
      const gap = await call("system_output", {
        executionId,
        stream: "stdout",
        offset: out.omittedFrom,
        limit: out.omittedBytes,
      });
      expect(gap.bytes).toBe(out.omittedBytes);
      const rebuilt = "first\n" + head + gap.text + tail;
      expect(rebuilt).toBe(`first\n${big}\nline\nno newline yet`);
      // The cursor moved past the partial line: the next snapshot starts at the end.
      const after = await call("system_wait", { executionId, waitMs: 0 });
      expect(after.stdout).toEqual(stream("", total, total));
    } finally {
      program.end();
    }
    await call("system_wait", { executionId, waitMs: 20_000 });
  });

  it("system_cancel's snapshot and result: the completed result is the whole stream", async () => {
    const program = await onDemand();
    const { executionId } = program;
    program.say({ stdout: "x\ny\n" });
    await waitFor(executionId, "^y$", 0);
    const cancelled = await call("system_cancel", { executionId });
    expect(cancelled.status).toBe("completed");
    expect(cancelled.stdout.text).toBe("x\ny\n");
    expect("sinceOffset" in cancelled.stdout).toBe(false);
    program.end();
  });

  it("rejects bad since and full values with INVALID_REQUEST", async () => {
    const program = await onDemand();
    const { executionId } = program;
    try {
      program.say({ stdout: "abc\n" });
      await waitFor(executionId, "^abc$", 0);
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ since: { stdout: -1 } }, /since\/stdout/],
        [{ since: { stdout: 1.5 } }, /since\/stdout/],
        [{ since: { stdout: "2" } }, /since\/stdout/],
        [{ since: { stdin: 2 } }, /stdin/],
        [
          { since: { stdout: 5 } },
          /since\.stdout must be .* from 0 to the 4 bytes of stdout so far, got 5/,
        ],
        [{ full: "yes" }, /full/],
        [{ full: true, since: { stdout: 0 } }, /either since .* or full/],
      ];
      for (const [args, message] of bad) {
        const result = await server.call("system_wait", { executionId, waitMs: 0, ...args });
        expect(result.isError, JSON.stringify(args)).toBe(true);
        const text = (result.content[0] as { text: string }).text;
        expect(text).toMatch(/^INVALID_REQUEST: /);
        expect(text).toMatch(message);
      }
    } finally {
      program.end();
    }
    await call("system_wait", { executionId, waitMs: 20_000 });
  });
});

describe("the served schema", () => {
  it("declares since and full on system_wait, sinceOffset and omittedFrom on streams", async () => {
    const { tools } = await server.client.listTools();
    const wait = tools.find((t) => t.name === "system_wait")!;
    expect(Object.keys(wait.inputSchema.properties!)).toEqual(
      expect.arrayContaining(["since", "full"]),
    );
    // tools/list serves nested objects open (mcp/served-schema.ts); the full schema the results
    // are typed from and checked against declares the stream's fields.
    expect((wait.outputSchema!.properties as any).stdout).toEqual({ type: "object" });
    const stdout = executionReportSchema.properties.stdout;
    expect(Object.keys(stdout.properties)).toEqual([
      "truncated",
      "totalBytes",
      "sinceOffset",
      "omittedBytes",
      "omittedFrom",
      "lossyUtf8",
      "text",
    ]);
    expect(root).toBeTruthy();
  });
});
