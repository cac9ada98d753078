// Paging published artifacts (SPEC §3.3): exact base64 round trips, utf8 pages aligned to code
// points, eof, offsets and limits.

import { createHash, randomBytes } from "node:crypto";
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import { publishBytes, readWhole, useStore } from "./artifacts-helpers.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function publish(store: ArtifactStore, stdout: Buffer, stderr?: Buffer): Promise<string> {
  const outcome = await publishBytes(store, stdout, stderr);
  expect(outcome.status).toBe("published");
  return outcome.id!;
}

describe("artifact pages", () => {
  let store: ArtifactStore;
  useStore((opened) => (store = opened));

  it("reproduces random binary data exactly in base64 pages", async () => {
    const stdout = randomBytes(3 * MiB + 12_345);
    const stderr = randomBytes(200 * KiB + 7);
    const id = await publish(store, stdout, stderr);
    for (const limit of [MiB, 77_777, 10 * MiB]) {
      const whole = await readWhole(store, id, "stdout", "base64", limit);
      expect(sha256(whole.bytes)).toBe(sha256(stdout));
    }
    const err = await readWhole(store, id, "stderr", "base64", 65_536);
    expect(sha256(err.bytes)).toBe(sha256(stderr));
  });

  it("reproduces valid UTF-8 exactly in utf8 pages, and random binary as one whole decode", async () => {
    const alphabet = ["a", "é", "€", "😀", "\n"];
    const long = Buffer.from(Array.from({ length: 40_000 }, (_, i) => alphabet[i % 5]).join(""));
    const short = long.subarray(0, 3_000 * 2 + 1); // cuts a character: made lossy at the end
    const binary = randomBytes(2 * MiB + 3);
    const id = await publish(store, long, binary);
    for (const limit of [4093, 65_536, 512 * KiB]) {
      const whole = await readWhole(store, id, "stdout", "utf8", limit);
      expect(sha256(Buffer.from(whole.text, "utf8"))).toBe(sha256(long));
      expect(whole.pages.every((page) => page.lossyUtf8 === false)).toBe(true);
    }
    const shortId = await publish(store, short);
    for (const limit of [1, 2, 3, 5]) {
      const whole = await readWhole(store, shortId, "stdout", "utf8", limit);
      expect(whole.text).toBe(decoder.decode(short));
    }
    const err = await readWhole(store, id, "stderr", "utf8", 100_003);
    expect(err.text).toBe(decoder.decode(binary));
    expect(err.pages.reduce((sum, page) => sum + page.bytes, 0)).toBe(binary.length);
  });

  it("leaves a character cut by the limit for the next page without calling it lossy", async () => {
    const id = await publish(store, Buffer.from("a€b", "utf8")); // 61 e2 82 ac 62
    const first = await store.read(id, "stdout", 0, 2, "utf8");
    expect(first).toMatchObject({
      bytes: 1,
      nextOffset: 1,
      eof: false,
      text: "a",
      lossyUtf8: false,
    });
    const second = await store.read(id, "stdout", 1, 2, "utf8");
    // The page must hold one code point, so it goes past a limit smaller than the character.
    expect(second).toMatchObject({ bytes: 3, nextOffset: 4, text: "€", lossyUtf8: false });
    const third = await store.read(id, "stdout", 4, 2, "utf8");
    expect(third).toMatchObject({ bytes: 1, nextOffset: 5, eof: true, text: "b" });
  });

  it("pages a 4-byte character with limit 1 as one page of 4 bytes", async () => {
    const id = await publish(store, Buffer.from("😀😀", "utf8"));
    const whole = await readWhole(store, id, "stdout", "utf8", 1);
    expect(whole.pages.map((page) => page.bytes)).toEqual([4, 4]);
    expect(whole.text).toBe("😀😀");
  });

  it("flags really invalid bytes as lossy and shows them as U+FFFD", async () => {
    const id = await publish(store, Buffer.from([0x61, 0xff, 0x62, 0xc0, 0x80]));
    const page = await store.read(id, "stdout", 0, 100, "utf8");
    expect(page).toMatchObject({ bytes: 5, eof: true, lossyUtf8: true });
    expect(page.text).toBe("a\uFFFDb\uFFFD\uFFFD");
    const clean = await store.read(id, "stdout", 2, 1, "utf8");
    expect(clean).toMatchObject({ bytes: 1, text: "b", lossyUtf8: false });
    const invalidAlone = await store.read(id, "stdout", 1, 1, "utf8");
    expect(invalidAlone).toMatchObject({ bytes: 1, text: "\uFFFD", lossyUtf8: true });
  });

  it("treats a character truncated by the end of the stream as invalid", async () => {
    const id = await publish(store, Buffer.from([0x61, 0xe2, 0x82]));
    const first = await store.read(id, "stdout", 0, 2, "utf8");
    expect(first).toMatchObject({ bytes: 1, text: "a", lossyUtf8: false, eof: false });
    const rest = await store.read(id, "stdout", 1, 1, "utf8");
    expect(rest).toMatchObject({ bytes: 2, text: "\uFFFD", lossyUtf8: true, eof: true });
  });

  it("keeps a byte order mark as text", async () => {
    const id = await publish(store, Buffer.from("\uFEFFhi", "utf8"));
    const page = await store.read(id, "stdout", 0, 100, "utf8");
    expect(page.text).toBe("\uFEFFhi");
  });

  it("concatenates utf8 pages to the whole-stream decode for any bytes and limit", async () => {
    const chunk = fc.oneof(
      fc.string({ unit: "grapheme" }).map((s) => Buffer.from(s, "utf8")),
      fc.uint8Array({ minLength: 1, maxLength: 6 }).map((a) => Buffer.from(a)),
      fc.constantFrom(
        ...[[0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc3]].map((a) =>
          Buffer.from(a),
        ),
      ),
    );
    const input = fc.record({
      bytes: fc.array(chunk, { maxLength: 12 }).map((parts) => Buffer.concat(parts)),
      limit: fc.integer({ min: 1, max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ bytes, limit }) => {
        const id = await publish(store, bytes);
        const whole = await readWhole(store, id, "stdout", "utf8", limit);
        expect(whole.text).toBe(decoder.decode(bytes));
        expect(whole.pages.some((page) => page.lossyUtf8)).toBe(!isUtf8(bytes));
        for (const page of whole.pages.slice(0, -1)) {
          expect(page.bytes).toBeGreaterThanOrEqual(1);
          expect(page.bytes).toBeLessThanOrEqual(Math.max(limit, 4));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reports eof when nextOffset reaches the stream length, and refuses offsets beyond it", async () => {
    const id = await publish(store, Buffer.from("hello"), Buffer.alloc(0));
    expect(await store.read(id, "stdout", 0, 5, "base64")).toMatchObject({
      bytes: 5,
      nextOffset: 5,
      eof: true,
      encoding: "base64",
      base64: Buffer.from("hello").toString("base64"),
    });
    expect(await store.read(id, "stdout", 0, 4, "base64")).toMatchObject({ eof: false });
    expect(await store.read(id, "stdout", 5, 10, "utf8")).toMatchObject({
      bytes: 0,
      nextOffset: 5,
      eof: true,
      text: "",
    });
    expect(await store.read(id, "stderr", 0, 10, "utf8")).toMatchObject({ bytes: 0, eof: true });
    await expect(store.read(id, "stdout", 6, 10, "utf8")).rejects.toMatchObject({
      code: "INVALID_OUTPUT_OFFSET",
    });
    await expect(store.read(id, "stderr", 1, 10, "base64")).rejects.toMatchObject({
      code: "INVALID_OUTPUT_OFFSET",
    });
  });

  it("refuses malformed offsets and limits with their codes", async () => {
    const id = await publish(store, Buffer.from("hello"));
    for (const offset of [1.5, Number.NaN, -0.5]) {
      await expect(store.read(id, "stdout", offset, 10, "utf8")).rejects.toMatchObject({
        code: "INVALID_OUTPUT_OFFSET",
      });
    }
    for (const limit of [0, -3, 2.5]) {
      await expect(store.read(id, "stdout", 0, limit, "utf8")).rejects.toMatchObject({
        code: "INVALID_OUTPUT_PAGE",
      });
    }
    const encoding = "hex" as unknown as "utf8";
    await expect(store.read(id, "stdout", 0, 1, encoding)).rejects.toMatchObject({
      code: "INVALID_OUTPUT_PAGE",
    });
  });

  it("clamps limits to 1 MiB for base64; utf8 pages end before 30,000 escaped characters", async () => {
    const id = await publish(store, Buffer.alloc(3 * MiB, 0x61));
    expect((await store.read(id, "stdout", 0, 50 * MiB, "base64")).bytes).toBe(MiB);
    // Revision 2 (§3.3): 512 KiB is the utf8 clamp, but the escaped-length bound ends it first.
    expect((await store.read(id, "stdout", 0, 50 * MiB, "utf8")).bytes).toBe(29_999);
    const quotes = await publish(store, Buffer.alloc(64 * KiB, 0x22));
    const page = await store.read(quotes, "stdout", 0, 50 * MiB, "utf8");
    expect(page.bytes).toBe(14_999);
    expect(JSON.stringify(page.text).length - 2).toBeLessThan(30_000);
  });
});
