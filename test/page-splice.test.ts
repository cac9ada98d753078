// The paging splice (SPEC §16): a large base64 page written by the transport must be byte for
// byte the line JSON.stringify gives for the same message, with the page in structuredContent
// and in the pretty text block.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { GuardedStdioTransport } from "../src/mcp/stdio-transport.js";
import {
  PageSplicer,
  SPLICE_MIN_BASE64_CHARS,
  spliceLine,
  successResult,
} from "../src/mcp/results.js";

/**
 * Sends `value` as the result of request `id` the way GuardedStdioTransport.send does: through
 * the splicer when it holds the page, else "through the transport" (recorded).
 */
async function sendThrough(value: object, id = 7) {
  const splicer = new PageSplicer();
  const viaTransport: unknown[] = [];
  const written: Buffer[] = [];
  const result = splicer.result(value);
  // what the SDK does with a handler's result: validate (a copy), then send the response
  const message = { result: structuredClone(result), jsonrpc: "2.0", id };
  const spliced = splicer.sendSpliced(message, async (line) => {
    written.push(line);
  });
  if (spliced) await spliced;
  else viaTransport.push(message);
  return { result, viaTransport, written };
}

const expectedLine = (value: object, id = 7) =>
  JSON.stringify({ result: successResult(value), jsonrpc: "2.0", id }) + "\n";

const page = (bytes: Buffer, extra: object = {}) => ({
  bytes: bytes.length,
  nextOffset: bytes.length,
  eof: true,
  encoding: "base64",
  base64: bytes.toString("base64"),
  ...extra,
});

describe("page splice", () => {
  it("writes exactly JSON.stringify's line for a 1 MiB base64 page, both copies in place", async () => {
    const bytes = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + (i >> 9)) & 0xff;
    const value = page(bytes);
    const { result, viaTransport, written } = await sendThrough(value);
    // the page went through the SDK as a short token, not as 1.4 MB of base64
    expect(JSON.stringify(result).length).toBeLessThan(1024);
    expect(viaTransport).toEqual([]);
    expect(written).toHaveLength(1);
    const line = written[0]!;
    expect(line.equals(Buffer.from(expectedLine(value), "utf8"))).toBe(true);
    const parsed = JSON.parse(line.toString("utf8"));
    expect(Buffer.from(parsed.result.structuredContent.base64, "base64").equals(bytes)).toBe(true);
    expect(JSON.parse(parsed.result.content[0].text)).toEqual(parsed.result.structuredContent);
  });

  it("is byte-identical to JSON.stringify for any page bytes and any other field text", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({
          minLength: SPLICE_MIN_BASE64_CHARS,
          maxLength: SPLICE_MIN_BASE64_CHARS + 64,
        }),
        fc.string({ unit: "binary" }),
        async (raw, note) => {
          const value = page(Buffer.from(raw), { note, quote: '"\\\n\u0001' });
          const { written } = await sendThrough(value, 3);
          expect(written).toHaveLength(1);
          expect(written[0]!.toString("utf8")).toBe(expectedLine(value, 3));
        },
      ),
      { numRuns: 8 },
    );
  });

  it("leaves small pages and other results to the transport unchanged", async () => {
    const small = page(Buffer.from("hello"));
    const { result, viaTransport, written } = await sendThrough(small);
    expect(result).toEqual(successResult(small));
    expect(written).toEqual([]);
    expect(viaTransport).toHaveLength(1);
    const other = { status: "completed", stdout: { text: "x".repeat(200_000) } };
    const second = await sendThrough(other);
    expect(second.result).toEqual(successResult(other));
    expect(second.written).toEqual([]);
  });

  it("spliceLine replaces every occurrence and keeps multi-byte text intact", () => {
    const json = JSON.stringify({ a: "TOKEN", b: "é—😀", c: ["TOKEN"] });
    expect(spliceLine(json, "TOKEN", "QUJD").toString("utf8")).toBe(
      JSON.stringify({ a: "QUJD", b: "é—😀", c: ["QUJD"] }),
    );
  });

  it("the server's stdio transport writes a stashed page through the splicer, others as JSON", async () => {
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    const splicer = new PageSplicer();
    const transport = new GuardedStdioTransport(new PassThrough(), stdout, () => {}, splicer);
    const value = page(Buffer.alloc(SPLICE_MIN_BASE64_CHARS, 7));
    const result = splicer.result(value);
    const token = (result.structuredContent as { base64: string }).base64;
    expect(token).toMatch(/^scm-page-[0-9a-f]{32}$/);
    const message = { result, jsonrpc: "2.0", id: 9 } as never;
    await transport.send(message);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(expectedLine(value, 9));
    // The page was taken once: the same token again is no longer spliced.
    chunks.length = 0;
    await transport.send(message);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(
      JSON.stringify({ result, jsonrpc: "2.0", id: 9 }) + "\n",
    );
  });
});
