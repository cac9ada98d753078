// Live reads from a spool while it is written (SPEC §19), backpressure, and the spool cap.

import { afterEach, describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import type { Staging } from "../src/artifacts/store.js";
import { openStoreIn, TempDirs, useStore } from "./artifacts-helpers.js";

/** Waits until the spool holds `bytes` bytes of `stream` (writes complete asynchronously). */
async function spooled(staging: Staging, stream: "stdout" | "stderr", bytes: number) {
  const deadline = Date.now() + 10_000;
  while (staging.spooledBytes(stream) < bytes) {
    if (Date.now() > deadline) throw new Error(`spool stuck at ${staging.spooledBytes(stream)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("live spool reads", () => {
  let store: ArtifactStore;
  useStore((opened) => (store = opened), { overrides: { maxStreamBytes: 64 } });

  it("reads what is spooled so far, waits at the end, and reports eof only once ended", async () => {
    const staging = await store.createStaging();
    staging.write("stdout", Buffer.from("hello "));
    await spooled(staging, "stdout", 6);
    expect(await staging.readLive("stdout", 0, 100, "utf8")).toMatchObject({
      bytes: 6,
      nextOffset: 6,
      eof: false,
      text: "hello ",
      available: 6,
    });
    expect(await staging.readLive("stdout", 6, 100, "utf8")).toMatchObject({
      bytes: 0,
      nextOffset: 6,
      eof: false,
      available: 6,
    });
    expect(await staging.readLive("stdout", 40, 100, "base64")).toMatchObject({
      bytes: 0,
      nextOffset: 40,
      eof: false,
    });
    staging.write("stdout", Buffer.from("world"));
    await staging.end();
    expect(await staging.readLive("stdout", 6, 100, "utf8")).toMatchObject({
      text: "world",
      eof: true,
      available: 11,
    });
    await expect(staging.readLive("stdout", 12, 100, "utf8")).rejects.toMatchObject({
      code: "INVALID_OUTPUT_OFFSET",
    });
    expect(await staging.readLive("stderr", 0, 100, "utf8")).toMatchObject({ bytes: 0, eof: true });
    const outcome = await staging.publish({ stdout: 11, stderr: 0 });
    expect(outcome.status).toBe("published");
    // After publication the same spool is read from its published place.
    expect(await staging.readLive("stdout", 0, 5, "utf8")).toMatchObject({ text: "hello" });
    expect(await store.read(outcome.id!, "stdout", 0, 100, "utf8")).toMatchObject({
      text: "hello world",
    });
  });

  it("leaves a character cut by the end of the spool for a later read", async () => {
    const staging = await store.createStaging();
    staging.write("stderr", Buffer.from([0x61, 0xe2, 0x82]));
    await spooled(staging, "stderr", 3);
    expect(await staging.readLive("stderr", 0, 100, "utf8")).toMatchObject({
      bytes: 1,
      text: "a",
      lossyUtf8: false,
    });
    expect(await staging.readLive("stderr", 1, 100, "utf8")).toMatchObject({
      bytes: 0,
      eof: false,
    });
    staging.write("stderr", Buffer.from([0xac]));
    await spooled(staging, "stderr", 4);
    expect(await staging.readLive("stderr", 1, 100, "utf8")).toMatchObject({
      bytes: 3,
      text: "€",
      lossyUtf8: false,
    });
    await staging.discard();
    await expect(staging.readLive("stderr", 0, 1, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
  });

  it("stops the spool at the cap: later offsets get OUTPUT_CAP_EXCEEDED", async () => {
    const staging = await store.createStaging();
    staging.write("stdout", Buffer.alloc(50, 0x61));
    staging.write("stdout", Buffer.alloc(50, 0x62));
    await spooled(staging, "stdout", 64);
    expect(staging.spooledBytes("stdout")).toBe(64);
    const page = await staging.readLive("stdout", 0, 1000, "base64");
    expect(page).toMatchObject({ bytes: 64, nextOffset: 64, eof: false, available: 64 });
    for (const offset of [64, 65, 10_000]) {
      await expect(staging.readLive("stdout", offset, 10, "utf8")).rejects.toMatchObject({
        code: "OUTPUT_CAP_EXCEEDED",
      });
    }
    expect(await staging.publish({ stdout: 100, stderr: 0 })).toEqual({
      status: "unavailable",
      reason: "STREAM_CAP",
    });
  });
});

describe("spool backpressure", () => {
  const temp = new TempDirs();

  afterEach(() => temp.cleanup());

  // The writer used to buffer up to a high-water mark and ask for drain; it now writes before
  // returning (SPEC §16: the pipes are read into one reused buffer), so a chunk may be reused at
  // once and nothing waits in memory.
  it("has every byte in the file when write() returns, so the caller may reuse its buffer", async () => {
    const store = await openStoreIn(await temp.make());
    const staging = await store.createStaging();
    const chunk = Buffer.alloc(256 * 1024);
    const rounds = 64; // 16 MiB
    for (let i = 0; i < rounds; i++) {
      chunk.fill(0x41 + (i % 26)); // the same buffer, new bytes each time
      expect(staging.write("stdout", chunk)).toBe(true);
      expect(staging.spooledBytes("stdout")).toBe((i + 1) * chunk.length);
    }
    const written = rounds * chunk.length;
    const outcome = await staging.publish({ stdout: written, stderr: 0 });
    expect(outcome.status).toBe("published");
    for (const i of [0, 1, 25, 26, rounds - 1]) {
      const page = await store.read(outcome.id!, "stdout", i * chunk.length + 100, 3, "utf8");
      expect(page.text).toBe(String.fromCharCode(0x41 + (i % 26)).repeat(3));
    }
    const last = await store.read(outcome.id!, "stdout", written - 3, 10, "utf8");
    expect(last).toMatchObject({ eof: true, bytes: 3 });
    await store.close();
  });
});
