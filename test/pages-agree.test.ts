// One page function (issue #10 seam 3, SPEC §3.3): a page of output that never left memory, of a
// live spool and of a published artifact are the same page, byte for byte — also after a negative
// offset and at invalid UTF-8.

import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import { ExecutionOutput } from "../src/output/execution-output.js";
import type { OutputEncoding } from "../src/output/types.js";
import { publishBytes, useStore } from "./artifacts-helpers.js";

let store: ArtifactStore;
useStore((opened) => (store = opened), { once: true });

/** An ended execution's output held in memory only (no spool source). */
async function inMemory(bytes: Buffer): Promise<ExecutionOutput> {
  const output = new ExecutionOutput(
    { maxOutputBytes: 8192, budgetBytes: 16384 },
    "never",
    undefined,
  );
  await output.consume("stdout", Readable.from([bytes]));
  await output.consume("stderr", Readable.from([]));
  return output;
}

/** An ended execution whose output was spooled (a handle was handed out) and kept. */
async function spooled(bytes: Buffer): Promise<ExecutionOutput> {
  const output = new ExecutionOutput(
    { maxOutputBytes: 8192, budgetBytes: 16384 },
    "never",
    store,
    true,
  );
  await output.forceSpool();
  await output.consume("stdout", Readable.from([bytes]));
  await output.consume("stderr", Readable.from([]));
  await output.finish(true);
  return output;
}

async function published(bytes: Buffer): Promise<string> {
  const outcome = await publishBytes(store, bytes);
  expect(outcome.status).toBe("published");
  return outcome.id!;
}

async function threePages(bytes: Buffer, offset: number, limit: number, encoding: OutputEncoding) {
  const memory = await inMemory(bytes);
  const live = await spooled(bytes);
  const id = await published(bytes);
  const { available: _a, ...fromMemory } = await memory.readLive(
    "stdout",
    offset,
    limit,
    encoding,
    true,
  );
  const { available: _b, ...fromSpool } = await live.readLive(
    "stdout",
    offset,
    limit,
    encoding,
    true,
  );
  const fromStore = await store.read(id, "stdout", offset, limit, encoding);
  await live.release();
  return { fromMemory, fromSpool, fromStore };
}

describe("live and stored pages agree", () => {
  it("61 ED A0 80 62 with limit 3: the same page in memory, in a spool and in the store", async () => {
    const bytes = Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]);
    const { fromMemory, fromSpool, fromStore } = await threePages(bytes, 0, 3, "utf8");
    expect(fromStore).toEqual({
      offset: 0,
      bytes: 3,
      nextOffset: 3,
      eof: false,
      encoding: "utf8",
      text: "a\ufffd\ufffd",
      lossyUtf8: true,
    });
    expect(fromMemory).toEqual(fromStore);
    expect(fromSpool).toEqual(fromStore);
  });

  it("any bytes, offset (negative too), limit and encoding: one page", async () => {
    const bytes = fc
      .uint8Array({ maxLength: 40 })
      .chain((raw) =>
        fc.tuple(
          fc.constant(Buffer.from(raw)),
          fc.integer({ min: -45, max: raw.length }),
          fc.integer({ min: 1, max: 12 }),
          fc.constantFrom<OutputEncoding>("utf8", "base64"),
        ),
      );
    // Bytes drawn mostly from UTF-8 lead/continuation ranges so that cuts land inside characters.
    const utf8ish = fc
      .array(
        fc.constantFrom(
          0x61,
          0xc3,
          0xa9,
          0xe2,
          0x82,
          0xac,
          0xf0,
          0x9f,
          0x98,
          0x80,
          0xed,
          0xa0,
          0xff,
        ),
        {
          maxLength: 40,
        },
      )
      .chain((raw) =>
        fc.tuple(
          fc.constant(Buffer.from(raw)),
          fc.integer({ min: -45, max: raw.length }),
          fc.integer({ min: 1, max: 12 }),
          fc.constant<OutputEncoding>("utf8"),
        ),
      );
    await fc.assert(
      fc.asyncProperty(fc.oneof(bytes, utf8ish), async ([data, offset, limit, encoding]) => {
        const { fromMemory, fromSpool, fromStore } = await threePages(
          data,
          offset,
          limit,
          encoding,
        );
        expect(fromMemory).toEqual(fromStore);
        expect(fromSpool).toEqual(fromStore);
      }),
      { numRuns: 120 },
    );
  });
});
