// StreamProjection on its own: chunking must not change the excerpt (SPEC §7).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StreamProjection } from "../src/output/projection.js";

function project(chunks: Buffer[], max: number, head: number) {
  const projection = new StreamProjection({ maxOutputBytes: max, headBytes: head });
  for (const chunk of chunks) projection.push(chunk);
  return projection.snapshot(true);
}

describe("StreamProjection", () => {
  it("gives the same excerpt however the bytes are chunked", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.array(fc.nat(600), { maxLength: 8 }),
        fc.integer({ min: 1, max: 200 }),
        (bytes, cuts, max) => {
          const head = Math.floor(max / 4);
          const data = Buffer.from(bytes);
          const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let last = 0;
          for (const p of [...points, data.length]) {
            chunks.push(data.subarray(last, p));
            last = p;
          }
          const whole = project([data], max, head);
          const chunked = project(chunks, max, head);
          expect(chunked).toEqual(whole);
          expect(whole.totalBytes).toBe(data.length);
          expect(whole.truncated).toBe(data.length > max);
          if (!whole.truncated) expect(whole.text).toBe(data.toString("utf8"));
          expect(whole.lossyUtf8).toBe(!Buffer.from(data.toString("utf8")).equals(data));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("accounts every byte: retained + omitted = total", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), (text) => {
        const data = Buffer.from(text);
        const out = project([data], 64, 16);
        if (!out.truncated) return;
        const [head, rest] = out.text.split(`\n[... ${out.omittedBytes} bytes omitted ...]\n`);
        expect(Buffer.byteLength(head!) + Buffer.byteLength(rest!) + out.omittedBytes).toBe(
          data.length,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("allocates no buffers for a stream that stays empty, and its snapshot is empty", () => {
    const limits = { maxOutputBytes: 64 * 1024, headBytes: 16 * 1024 };
    const before = process.memoryUsage().arrayBuffers;
    const idle = Array.from({ length: 200 }, () => new StreamProjection(limits));
    const idleGrowth = process.memoryUsage().arrayBuffers - before;
    // 200 eager projections would hold 200 × 64 KiB = 12.5 MiB of buffers
    expect(idleGrowth).toBeLessThan(1024 * 1024);
    for (const projection of idle) projection.push(Buffer.alloc(0));
    expect(idle[0]!.snapshot(true)).toEqual({
      text: "",
      truncated: false,
      totalBytes: 0,
      omittedBytes: 0,
      lossyUtf8: false,
    });
    const used = Array.from({ length: 200 }, () => new StreamProjection(limits));
    for (const projection of used) projection.push(Buffer.from("x"));
    expect(process.memoryUsage().arrayBuffers - before).toBeGreaterThan(200 * 60 * 1024);
    expect(used[0]!.snapshot(true).text).toBe("x");
  });
});
