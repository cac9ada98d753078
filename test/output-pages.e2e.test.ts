// system_output pages through the real server (SPEC §3.3, Revision 2): negative offsets on
// artifacts and on running executions, the page's absolute offset, the 24 KiB default page, and
// utf8 pages that stay under 30,000 escaped characters.

import { describe, expect, it } from "vitest";
import {
  backgroundNodeManifest,
  errorText,
  shareServer,
  waitForLine,
  type TestServer,
} from "./helpers/server.js";

let server: TestServer;

shareServer(backgroundNodeManifest(), [], (started) => (server = started));

/** The artifact id of `node -e` writing `bytes` to stdout (a JS expression for large ones). */
async function artifactOf(bytes: Buffer | string): Promise<string> {
  const expression =
    typeof bytes === "string" ? bytes : `Buffer.from('${bytes.toString("hex")}', 'hex')`;
  const script = `process.stdout.write(${expression})`;
  // Small outputs are not published on-truncation: pad stderr past the budget.
  const pad = "process.stderr.write(Buffer.alloc(40000, 'e'))";
  const result = await server.exec({
    program: "node",
    args: ["-e", `${script};${pad}`],
  });
  expect(result.artifact.status).toBe("published");
  return result.artifact.id as string;
}

async function page(args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await server.call("system_output", { stream: "stdout", ...args });
  expect(result.isError, errorText(result)).toBe(false);
  return result.structuredContent as Record<string, any>;
}

/** 0..n-1 as bytes mod 251 (prime): every page shows where it came from. */
const counting = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));
const countingScript = (n: number) =>
  `Buffer.from(Array.from({ length: ${n} }, (_, i) => i % 251))`;

describe("negative offsets on artifacts", () => {
  it("-4096 reads the last 4 KiB and reports the absolute offset", async () => {
    const bytes = counting(100_000);
    const id = await artifactOf(countingScript(100_000));
    const last = await page({ id, offset: -4096, encoding: "base64" });
    expect(last).toMatchObject({ offset: 95_904, bytes: 4096, nextOffset: 100_000, eof: true });
    expect(Buffer.from(last.base64, "base64").equals(bytes.subarray(95_904))).toBe(true);
    // past the start: clamped to 0
    const all = await page({ id, offset: -1_000_000, encoding: "base64", limit: 1_000_000 });
    expect(all).toMatchObject({ offset: 0, bytes: 100_000, eof: true });
    // a positive offset reports itself
    expect(await page({ id, offset: 10, limit: 5, encoding: "base64" })).toMatchObject({
      offset: 10,
      bytes: 5,
      nextOffset: 15,
      eof: false,
    });
  });

  it("a utf8 page after a negative offset starts at the next code point", async () => {
    // "a€b": a=0, €=1..3, b=4 — offset -3 lands on the second byte of €
    const id = await artifactOf(Buffer.from("a€b"));
    expect(await page({ id, offset: -3 })).toMatchObject({
      offset: 4,
      bytes: 1,
      nextOffset: 5,
      eof: true,
      text: "b",
      lossyUtf8: false,
    });
    expect(await page({ id, offset: -4 })).toMatchObject({ offset: 1, text: "€b" });
  });

  it("a positive offset past the end is still INVALID_OUTPUT_OFFSET", async () => {
    const id = await artifactOf(Buffer.from("abc"));
    const result = await server.call("system_output", { id, stream: "stdout", offset: 4 });
    expect(errorText(result)).toMatch(/^INVALID_OUTPUT_OFFSET: /);
  });
});

describe("default page and escaped length", () => {
  it("the default limit is 24576", async () => {
    const id = await artifactOf(countingScript(100_000));
    expect(await page({ id, offset: 0, encoding: "base64" })).toMatchObject({
      bytes: 24_576,
      nextOffset: 24_576,
    });
    const report = (await server.call("system_environment")).structuredContent as any;
    expect(report.limits.outputPageDefaultBytes).toBe(24_576);
  });

  it("a utf8 page of quotes or control characters escapes to under 30,000 characters", async () => {
    for (const fill of [0x22, 0x01]) {
      const id = await artifactOf(`Buffer.alloc(65536, ${fill})`);
      const result = await server.call("system_output", { id, stream: "stdout", offset: 0 });
      const utf8 = result.structuredContent as Record<string, any>;
      expect(JSON.stringify(utf8.text).length - 2).toBeLessThan(30_000);
      expect(utf8.bytes).toBeGreaterThan(4000);
      expect(utf8.nextOffset).toBe(utf8.bytes);
      expect((result.content[0] as { text: string }).text.length).toBeLessThan(40_000);
      // base64 pages are not shortened
      expect(await page({ id, offset: 0, encoding: "base64" })).toMatchObject({ bytes: 24_576 });
    }
  });
});

describe("negative offsets on a running execution", () => {
  it("count from the end of the bytes so far", async () => {
    const script =
      "process.stdout.write('x'.repeat(1000) + 'TAIL', () => console.error('ready'));" +
      "setTimeout(() => {}, 30000);";
    const handle = await server.exec({ program: "node", args: ["-e", script], background: true });
    try {
      await waitForLine(server, handle.executionId, "^ready$", { stream: "stderr" });
      const tail = await page({ executionId: handle.executionId, offset: -4 });
      expect(tail).toMatchObject({ offset: 1000, bytes: 4, nextOffset: 1004, eof: false });
      expect(tail.text).toBe("TAIL");
      const clamped = await page({ executionId: handle.executionId, offset: -5000, limit: 10 });
      expect(clamped).toMatchObject({ offset: 0, bytes: 10, text: "x".repeat(10) });
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId });
    }
  });
});
