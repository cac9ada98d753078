// Inline excerpts through the real server: head/tail, byte accounting, UTF-8 (SPEC §7).

import { describe, expect, it } from "vitest";
import { shareServer, type TestServer } from "./helpers/server.js";

let server: TestServer;

shareServer(undefined, ["--max-output-bytes", "100"], (started) => {
  server = started;
});

/** Runs node writing the bytes given as hex to stdout. */
async function emit(hex: string) {
  const script = `process.stdout.write(Buffer.from(process.argv[1], "hex"))`;
  return server.exec({ program: "node", args: ["-e", script, hex] });
}

const marker = (n: number) => `\n[... ${n} bytes omitted ...]\n`;

describe("head and tail", () => {
  it("keeps everything up to the limit", async () => {
    const bytes = Buffer.from("a".repeat(100));
    const { stdout } = await emit(bytes.toString("hex"));
    expect(stdout).toEqual({
      text: "a".repeat(100),
      truncated: false,
      totalBytes: 100,
      omittedBytes: 0,
      lossyUtf8: false,
    });
  });

  it("keeps a quarter as head and the rest as tail, counting omitted bytes exactly", async () => {
    const text = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(
      "",
    );
    const { stdout } = await emit(Buffer.from(text).toString("hex"));
    expect(stdout.truncated).toBe(true);
    expect(stdout.totalBytes).toBe(1000);
    expect(stdout.omittedBytes).toBe(900);
    expect(stdout.text).toBe(text.slice(0, 25) + marker(900) + text.slice(925));
  });

  it("cuts on code point boundaries and counts the dropped bytes as omitted", async () => {
    // 24 ASCII bytes then "é" (2 bytes) straddling the 25-byte head; tail starts mid "€".
    const head = "h".repeat(24) + "é";
    const tail = "€" + "t".repeat(73);
    const text = head + "m".repeat(500) + tail;
    const { stdout } = await emit(Buffer.from(text).toString("hex"));
    const total = Buffer.byteLength(text);
    // head keeps 24 bytes (é cut), tail keeps the last 75 bytes minus the 2 continuation bytes of €.
    expect(stdout.text).toBe("h".repeat(24) + marker(total - 24 - 73) + "t".repeat(73));
    expect(stdout.omittedBytes).toBe(total - 24 - 73);
    expect(stdout.lossyUtf8).toBe(false);
  });

  it("flags invalid UTF-8, also when it was only in the omitted middle", async () => {
    const shown = await emit(Buffer.from([0x61, 0xff, 0x62]).toString("hex"));
    expect(shown.stdout.lossyUtf8).toBe(true);
    expect(shown.stdout.text).toBe("a\uFFFDb");

    const middle = Buffer.concat([
      Buffer.from("x".repeat(200)),
      Buffer.from([0xc3]),
      Buffer.from("y".repeat(200)),
    ]);
    const omitted = await emit(middle.toString("hex"));
    expect(omitted.stdout.truncated).toBe(true);
    expect(omitted.stdout.text).not.toContain("\uFFFD");
    expect(omitted.stdout.lossyUtf8).toBe(true);
  });

  it("flags a stream that ends inside a multi-byte sequence", async () => {
    const { stdout } = await emit(Buffer.from([0x61, 0xe2, 0x82]).toString("hex"));
    expect(stdout.lossyUtf8).toBe(true);
  });

  it("treats stdout and stderr independently", async () => {
    const script = `process.stdout.write("o".repeat(300)); process.stderr.write("e".repeat(50))`;
    const result = await server.exec({ program: "node", args: ["-e", script] });
    expect(result.stdout.truncated).toBe(true);
    expect(result.stdout.omittedBytes).toBe(200);
    expect(result.stderr).toMatchObject({ truncated: false, totalBytes: 50, text: "e".repeat(50) });
  });

  it("stays bounded for a large stream (8 MiB through a 100-byte window)", async () => {
    const script = `const b = Buffer.alloc(1 << 20, 0x41); for (let i = 0; i < 8; i++) process.stdout.write(b)`;
    const result = await server.exec({ program: "node", args: ["-e", script] });
    expect(result.stdout.totalBytes).toBe(8 * 1024 * 1024);
    expect(result.stdout.omittedBytes).toBe(8 * 1024 * 1024 - 100);
  });
});
