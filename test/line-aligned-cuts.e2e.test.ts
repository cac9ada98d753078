// Line-aligned excerpt cuts and omittedFrom (SPEC §7 Revision 3), through the real server: the
// head ends after a newline, the tail starts after one, so every line shown is a whole line, and
// system_output { offset: omittedFrom, limit: omittedBytes } reads exactly what was left out.

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { errorText, shareServer, withServer, type TestServer } from "./helpers/server.js";
import { servedSchemaCheck, type ResultCheck } from "./helpers/schema-check.js";

let server: TestServer;
let check: ResultCheck;

shareServer(undefined, [], (started) => {
  server = started;
});

beforeAll(async () => {
  check = await servedSchemaCheck(server);
});

/** 3000 numbered lines of varying length on stdout, 800 on stderr: every line is unique. */
const SCRIPT =
  "const line = (s, i) => `${s} ${String(i).padStart(5, '0')} ${'y'.repeat((i * 7) % 53)}\\n`;" +
  "let out = ''; for (let i = 0; i < 3000; i++) out += line('out', i);" +
  "let err = ''; for (let i = 0; i < 800; i++) err += line('err', i);" +
  "process.stdout.write(out); process.stderr.write(err);";

function expectedText(prefix: string, count: number): string {
  let text = "";
  for (let i = 0; i < count; i++) {
    text += `${prefix} ${String(i).padStart(5, "0")} ${"y".repeat((i * 7) % 53)}\n`;
  }
  return text;
}

const LINE = (prefix: string) => new RegExp(`^${prefix} \\d{5} y*$`);

function split(stream: Record<string, any>): [string, string] {
  const parts = (stream.text as string).split(`\n[... ${stream.omittedBytes} bytes omitted ...]\n`);
  expect(parts).toHaveLength(2);
  return [parts[0]!, parts[1]!];
}

/** Every line of head and tail is a whole line of the stream, with no fragment at either cut. */
function expectWholeLines(stream: Record<string, any>, prefix: string): void {
  const [head, tail] = split(stream);
  expect(head.endsWith("\n")).toBe(true);
  for (const line of (head + tail).split("\n").filter((l) => l !== "")) {
    expect(line).toMatch(LINE(prefix));
  }
}

describe("line-aligned cuts and omittedFrom (§7 Revision 3)", () => {
  it("shows whole lines only, and omittedFrom + omittedBytes page exactly the gap", async () => {
    const result: CallToolResult = await server.call("system_exec", {
      program: "node",
      args: ["-e", SCRIPT],
    });
    expect(result.isError, errorText(result)).toBe(false);
    check("system_exec", result);
    const report = result.structuredContent as Record<string, any>;
    expect(report.artifact.status).toBe("published");
    for (const [name, prefix, count] of [
      ["stdout", "out", 3000],
      ["stderr", "err", 800],
    ] as const) {
      const stream = report[name];
      const whole = expectedText(prefix, count);
      expect(stream.truncated).toBe(true);
      expect(stream.totalBytes).toBe(Buffer.byteLength(whole));
      expectWholeLines(stream, prefix);
      const [head, tail] = split(stream);
      expect(stream.omittedFrom).toBe(Buffer.byteLength(head));
      const gap = await server.call("system_output", {
        id: report.artifact.id,
        stream: name,
        offset: stream.omittedFrom,
        limit: stream.omittedBytes,
        // utf8 pages stop at 30,000 escaped characters; base64 pages are exact (§3.3)
        encoding: "base64",
      });
      check("system_output", gap);
      const page = gap.structuredContent as Record<string, any>;
      expect(page.bytes).toBe(stream.omittedBytes);
      expect(head + Buffer.from(page.base64, "base64").toString() + tail).toBe(whole);
    }
  });

  it("a stream without newlines near the cuts is cut on code points alone", async () => {
    const script = "process.stdout.write('é'.repeat(40000))";
    const result = await server.call("system_exec", { program: "node", args: ["-e", script] });
    check("system_exec", result);
    const stdout = (result.structuredContent as Record<string, any>).stdout;
    const [head, tail] = split(stdout);
    // head 6144 bytes = 3072 characters; the tail gets the rest of 24576 bytes
    expect(head).toBe("é".repeat(3072));
    expect(tail).toBe("é".repeat((24_576 - 6144) / 2));
    expect(stdout.omittedFrom).toBe(6144);
  });

  it("omittedFrom is reported also when nothing is published (policy never)", async () => {
    const manifest = {
      version: 2,
      searchPath: ["/usr/bin", "/bin"],
      programs: {
        node: { candidates: [process.execPath], policy: { artifactPolicy: "never" } },
      },
    };
    await withServer(manifest, [], async (own) => {
      const result = await own.call("system_exec", { program: "node", args: ["-e", SCRIPT] });
      const report = result.structuredContent as Record<string, any>;
      expect(report.artifact.status).toBe("not-requested");
      expectWholeLines(report.stdout, "out");
      const [head] = split(report.stdout);
      expect(report.stdout.omittedFrom).toBe(Buffer.byteLength(head));
    });
  });
});
