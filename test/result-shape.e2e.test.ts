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

/** The top-level keys of the text block in the order they appear, and those of its streams. */
function textKeyOrder(result: CallToolResult): { top: string[]; streams: string[][] } {
  const block = result.content[0] as { type: string; text: string };
  expect(block.type).toBe("text");
  const parsed = JSON.parse(block.text) as Record<string, any>;
  // JSON.parse keeps the order of the text; check against the raw text positions too.
  const top = Object.keys(parsed);
  const positions = top.map((key) => block.text.indexOf(`\n  "${key}": `));
  expect(positions.every((p) => p >= 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  return { top, streams: [Object.keys(parsed.stdout), Object.keys(parsed.stderr)] };
}

function expectOrder(result: CallToolResult, keys: string[]): void {
  expect(result.isError, errorText(result)).toBe(false);
  const structured = result.structuredContent as Record<string, any>;
  expect(Object.keys(structured)).toEqual(keys);
  expect(Object.keys(structured.stdout)).toEqual(STREAM_KEYS);
  expect(Object.keys(structured.stderr)).toEqual(STREAM_KEYS);
  const text = textKeyOrder(result);
  expect(text.top).toEqual(keys);
  expect(text.streams).toEqual([STREAM_KEYS, STREAM_KEYS]);
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
