// Where UTF-8 text is cut (SPEC §3.3, §7): the tail of an excerpt never starts inside a character
// (4-byte ones included), and a utf8 page is as long as its limit allows — for stored artifacts
// and for a spool read live alike.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArtifactStore, Staging } from "../src/artifacts/store.js";
import { StreamProjection } from "../src/output/projection.js";
import type { OutputPage } from "../src/output/types.js";
import { publishBytes, useStore } from "./artifacts-helpers.js";

/** Characters of every UTF-8 length; 4-byte ones make the cut land 1, 2 or 3 bytes inside. */
const CHARS = ["a", "é", "€", "😀", "𝄞"];
const text = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...CHARS), minLength: 1, maxLength });

function excerpt(data: Buffer, max: number, head: number) {
  const projection = new StreamProjection({ maxOutputBytes: max, headBytes: head });
  projection.push(data);
  return projection.snapshot(true);
}

describe("excerpt cuts", () => {
  it("never start the tail (or end the head) inside a character of a valid stream", () => {
    fc.assert(
      fc.property(text(120), fc.integer({ min: 4, max: 80 }), (value, max) => {
        const data = Buffer.from(value, "utf8");
        const out = excerpt(data, max, Math.floor(max / 4));
        expect(out.lossyUtf8).toBe(false);
        expect(out.text).not.toContain("\uFFFD");
        if (!out.truncated) return;
        const marker = `\n[... ${out.omittedBytes} bytes omitted ...]\n`;
        const tail = out.text.slice(out.text.indexOf(marker) + marker.length);
        expect(value.endsWith(tail)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it("drops all three continuation bytes of a 4-byte character cut after its lead", () => {
    // 😀 = f0 9f 98 80. A 6-byte tail of "a😀😀" starts at the 9f of the first 😀.
    for (let max = 4; max <= 12; max++) {
      const out = excerpt(Buffer.from("a😀😀😀", "utf8"), max, 1);
      expect(out.text).not.toContain("\uFFFD");
    }
  });
});

/** Code point lengths of the characters of `value`, in order. */
function charBytes(value: string): number[] {
  return [...value].map((c) => Buffer.byteLength(c, "utf8"));
}

/** Checks that every page is the longest run of whole characters within `limit`. */
function expectLongestPages(value: string, pages: OutputPage[], limit: number): void {
  const lengths = charBytes(value);
  let char = 0;
  for (const page of pages) {
    let fit = 0;
    let bytes = 0;
    while (char + fit < lengths.length && bytes + lengths[char + fit]! <= limit) {
      bytes += lengths[char + fit]!;
      fit++;
    }
    // A character longer than the limit still makes a page of its own.
    if (fit === 0) bytes = lengths[char]!;
    expect(page.bytes).toBe(bytes);
    char += Math.max(fit, 1);
  }
  expect(char).toBe(lengths.length);
  expect(pages.map((p) => p.text).join("")).toBe(value);
}

describe("utf8 pages", () => {
  let store: ArtifactStore;
  useStore((opened) => (store = opened));

  async function storedPages(id: string, limit: number): Promise<OutputPage[]> {
    const pages: OutputPage[] = [];
    for (let offset = 0, eof = false; !eof;) {
      const page = await store.read(id, "stdout", offset, limit, "utf8");
      pages.push(page);
      ({ nextOffset: offset, eof } = page);
    }
    return pages;
  }

  async function livePages(staging: Staging, limit: number): Promise<OutputPage[]> {
    const pages: OutputPage[] = [];
    for (let offset = 0, eof = false; !eof;) {
      const page = await staging.readLive("stdout", offset, limit, "utf8");
      pages.push(page);
      ({ nextOffset: offset, eof } = page);
    }
    return pages;
  }

  it("fill the limit: aéb€c with limit 3 pages as aé, b, €, c", async () => {
    const outcome = await publishBytes(store, Buffer.from("aéb€c", "utf8"));
    const pages = await storedPages(outcome.id!, 3);
    expect(pages.map((p) => p.text)).toEqual(["aé", "b", "€", "c"]);
    expect(pages.map((p) => p.bytes)).toEqual([3, 1, 3, 1]);
  });

  it("are the longest run of whole characters within the limit, stored and live", async () => {
    await fc.assert(
      fc.asyncProperty(text(40), fc.integer({ min: 1, max: 12 }), async (value, limit) => {
        const data = Buffer.from(value, "utf8");
        const staging = await store.createStaging();
        staging.write("stdout", data);
        await staging.end();
        expectLongestPages(value, await livePages(staging, limit), limit);
        const outcome = await staging.publish({ stdout: data.length, stderr: 0 });
        expect(outcome.status).toBe("published");
        expectLongestPages(value, await storedPages(outcome.id!, limit), limit);
      }),
      { numRuns: 60 },
    );
  });
});
