// The spool writer's synchronous writes (src/artifacts/spool-writer.ts): the reason they are
// synchronous is that the bytes are in the file when write() returns, so the caller — the pipe
// reader, which reads every chunk into one reused buffer — may overwrite its buffer at once.
// These tests pin exactly that, plus the cap, order and the flushed count live readers wait on.

import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SpoolWriter } from "../src/artifacts/spool-writer.js";
import { removeDir, tempDir } from "./helpers/server.js";

let dir: string;

beforeEach(() => {
  dir = tempDir();
});

afterEach(() => {
  removeDir(dir);
});

describe("SpoolWriter", () => {
  it("has the bytes in the file when write() returns, so the caller may reuse its buffer", async () => {
    const file = path.join(dir, "stdout");
    let flushes = 0;
    const writer = new SpoolWriter(file, 1024 * 1024, () => flushes++);
    const reused = Buffer.alloc(64 * 1024);
    const expected: Buffer[] = [];
    for (let round = 0; round < 8; round++) {
      reused.fill(0x41 + round);
      expect(writer.write(reused)).toBe(true);
      expected.push(Buffer.from(reused));
      // Readable from the file at once, before any await: nothing waits in memory.
      expect(readFileSync(file).equals(Buffer.concat(expected))).toBe(true);
      expect(writer.flushed).toBe(writer.accepted);
      reused.fill(0); // the caller overwrites its buffer right away
    }
    expect(flushes).toBe(8);
    await writer.drained();
    await writer.end();
    expect(writer.settled).toBe(true);
    expect(readFileSync(file).equals(Buffer.concat(expected))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("stops at the cap, keeps order, and reports capped", async () => {
    const file = path.join(dir, "stderr");
    const writer = new SpoolWriter(file, 10);
    writer.write(Buffer.from("abcdef"));
    writer.write(Buffer.from("ghijkl"));
    writer.write(Buffer.from("mn"));
    expect(writer.capped).toBe(true);
    expect(writer.accepted).toBe(10);
    expect(readFileSync(file, "utf8")).toBe("abcdefghij");
    expect(writer.settled).toBe(true);
    await writer.end();
  });

  it("never writes through a name that already exists (O_EXCL | O_NOFOLLOW)", async () => {
    const file = path.join(dir, "stdout");
    const first = new SpoolWriter(file, 100);
    await first.end();
    const second = new SpoolWriter(file, 100);
    expect(second.failed).toBe(true);
    expect(second.write(Buffer.from("x"))).toBe(true);
    expect(second.settled).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("");
  });
});
