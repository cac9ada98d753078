// The shape of execution reports (SPEC §4, §7, §19): `cwd` in every result, `timeoutMs` and `cwd`
// in running snapshots, and the key order hosts that cut from the end (or keep whole lines from the
// top) depend on — in structuredContent and in the text block alike.

import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { errorText, FIXTURES, shareServer, type TestServer } from "./helpers/server.js";

const TICKER = path.join(FIXTURES, "ticker.mjs");

const COMPLETED_KEYS = [
  "status",
  "executionId",
  "exitCode",
  "signal",
  "timedOut",
  "cancelled",
  "durationMs",
  "cwd",
  "artifact",
  "programSelection",
  "termination",
  "inputBytes",
  "stdout",
  "stderr",
];
const RUNNING_KEYS = [
  "status",
  "executionId",
  "elapsedMs",
  "timeoutMs",
  "cwd",
  "programSelection",
  "stdout",
  "stderr",
];
const STREAM_KEYS = ["truncated", "totalBytes", "omittedBytes", "lossyUtf8", "text"];
const TRUNCATED_KEYS = [
  "truncated",
  "totalBytes",
  "omittedBytes",
  "omittedFrom",
  "lossyUtf8",
  "text",
];
/** Running snapshots add sinceOffset after totalBytes (§7, §19 Revision 3). */
const RUNNING_STREAM_KEYS = [
  "truncated",
  "totalBytes",
  "sinceOffset",
  "omittedBytes",
  "lossyUtf8",
  "text",
];

/** The §7 key order of a stream: sinceOffset only while running, omittedFrom only when truncated. */
function streamKeys(stream: Record<string, unknown>, running: boolean): string[] {
  return (running ? RUNNING_STREAM_KEYS : STREAM_KEYS).flatMap((key) =>
    key === "omittedBytes" && stream.truncated ? [key, "omittedFrom"] : [key],
  );
}

let server: TestServer;
let root: string;

shareServer(
  {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    programs: {
      node: { candidates: [process.execPath], policy: { allowBackground: true } },
      pwd: { candidates: ["pwd"] },
    },
  },
  [],
  (started, dir) => {
    server = started;
    root = dir;
  },
);

/** The text block: compact JSON on one line, exactly JSON.stringify(structuredContent) (§3). */
function expectCompactText(result: CallToolResult): void {
  expect(result.content).toHaveLength(1);
  const block = result.content[0] as { type: string; text: string };
  expect(block.type).toBe("text");
  expect(block.text).toBe(JSON.stringify(result.structuredContent));
  expect(block.text).not.toMatch(/\n {2}"/);
}

function expectOrder(result: CallToolResult, keys: string[]): void {
  expect(result.isError, errorText(result)).toBe(false);
  const structured = result.structuredContent as Record<string, any>;
  const running = structured.status === "running";
  expect(Object.keys(structured)).toEqual(keys);
  expect(Object.keys(structured.stdout)).toEqual(streamKeys(structured.stdout, running));
  expect(Object.keys(structured.stderr)).toEqual(streamKeys(structured.stderr, running));
  // The text block is the same object, so it has the same key order.
  expectCompactText(result);
}

describe("cwd (§4)", () => {
  it("is the Root when cwd is omitted, and the physical directory otherwise", async () => {
    const sub = path.join(root, "sub");
    mkdirSync(sub, { recursive: true });
    symlinkSync(sub, path.join(root, "link"));
    const omitted = await server.exec({ program: "pwd", args: ["-P"] });
    expect(omitted.cwd).toBe(root);
    expect(omitted.stdout.text).toBe(`${root}\n`);
    const relative = await server.exec({ program: "pwd", args: ["-P"], cwd: "link" });
    expect(relative.cwd).toBe(sub);
    expect(relative.stdout.text).toBe(`${sub}\n`);
  });
});

describe("running snapshots (§19)", () => {
  it("carry the effective timeoutMs and cwd, after a yield and in the background", async () => {
    const yielded = await server.exec({
      program: "node",
      args: [TICKER, "4", "250"],
      yieldMs: 100,
      timeoutMs: 20_000,
    });
    expect(yielded.status).toBe("running");
    expect(yielded.timeoutMs).toBe(20_000);
    expect(yielded.cwd).toBe(root);
    const background = await server.exec({
      program: "node",
      args: [TICKER, "200", "100"],
      background: true,
    });
    expect(background.status).toBe("running");
    // No timeoutMs in the background: the program's maxBackgroundTimeoutMs (1 h by default).
    expect(background.timeoutMs).toBe(3_600_000);
    expect(background.cwd).toBe(root);
    const waited = await server.call("system_wait", {
      executionId: background.executionId,
      waitMs: 0,
    });
    expect((waited.structuredContent as any).timeoutMs).toBe(3_600_000);
    await server.call("system_cancel", { executionId: background.executionId });
    let done = yielded;
    while (done.status === "running") {
      done = (await server.call("system_wait", { executionId: yielded.executionId }))
        .structuredContent as Record<string, any>;
    }
    expect(done.cwd).toBe(root);
    expect("timeoutMs" in done).toBe(false);
  });
});

describe("key order (§7), structuredContent and text block", () => {
  it("a completed result", async () => {
    const result = await server.call("system_exec", { program: "node", args: ["-e", "1"] });
    expectOrder(result, COMPLETED_KEYS);
  });

  it("a truncated completed result keeps the artifact id before the excerpts", async () => {
    const script = "process.stdout.write('x'.repeat(200000)); process.stderr.write('e')";
    const result = await server.call("system_exec", { program: "node", args: ["-e", script] });
    expectOrder(result, COMPLETED_KEYS);
    const text = (result.content[0] as { text: string }).text;
    const id = (result.structuredContent as any).artifact.id as string;
    expect(id).toBeTruthy();
    expect(text.indexOf(id)).toBeLessThan(text.indexOf('"stdout"'));
    expect(Object.keys((result.structuredContent as any).stdout)).toEqual(TRUNCATED_KEYS);
  });

  it("a running snapshot, and one with match", async () => {
    const handle = await server.call("system_exec", {
      program: "node",
      args: [TICKER, "200", "50"],
      background: true,
    });
    expectOrder(handle, RUNNING_KEYS);
    const executionId = (handle.structuredContent as any).executionId;
    const plain = await server.call("system_wait", { executionId, waitMs: 0 });
    expectOrder(plain, RUNNING_KEYS);
    const matched = await server.call("system_wait", {
      executionId,
      waitMs: 20_000,
      until: { pattern: "line 0002" },
    });
    const withMatch = [...RUNNING_KEYS];
    withMatch.splice(RUNNING_KEYS.indexOf("cwd") + 1, 0, "match");
    expectOrder(matched, withMatch);
    const cancelled = await server.call("system_cancel", { executionId });
    expectOrder(cancelled, COMPLETED_KEYS);
  });
});

describe("the text block is compact JSON.stringify(structuredContent) on every tool (§3)", () => {
  it("system_environment, system_exec, system_output (page and grep)", async () => {
    expectCompactText(await server.call("system_environment"));
    const script = "process.stdout.write('line\\n'.repeat(20000))";
    const exec = await server.call("system_exec", { program: "node", args: ["-e", script] });
    expectCompactText(exec);
    const id = (exec.structuredContent as any).artifact.id as string;
    expectCompactText(await server.call("system_output", { id, stream: "stdout", offset: 0 }));
    const grep = await server.call("system_output", {
      id,
      stream: "stdout",
      offset: 0,
      grep: { pattern: "^line$", maxMatches: 2 },
    });
    expectCompactText(grep);
    expect((grep.structuredContent as any).matches).toHaveLength(2);
  });

  it("system_wait and system_cancel, running and completed", async () => {
    const handle = await server.call("system_exec", {
      program: "node",
      args: [TICKER, "200", "50"],
      background: true,
    });
    expectCompactText(handle);
    const executionId = (handle.structuredContent as any).executionId;
    const waited = await server.call("system_wait", { executionId, waitMs: 0 });
    expect((waited.structuredContent as any).status).toBe("running");
    expectCompactText(waited);
    const cancelled = await server.call("system_cancel", { executionId });
    expect((cancelled.structuredContent as any).status).toBe("completed");
    expectCompactText(cancelled);
    const after = await server.call("system_wait", { executionId, waitMs: 0 });
    expectCompactText(after);
  });
});
