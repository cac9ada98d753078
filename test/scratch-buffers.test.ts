// Reused scratch buffers (SPEC §16 paging): a block given back is handed out again, a block that
// is out never is, and the splicer reuses a line's memory only once its write has finished.

import { describe, expect, it } from "vitest";
import { PageSplicer, successResult } from "../src/mcp/results.js";
import { ScratchBuffers } from "../src/output/scratch.js";

describe("ScratchBuffers", () => {
  it("hands a given-back block out again, and never one that is still out", () => {
    const scratch = new ScratchBuffers();
    const first = scratch.take(1000);
    const second = scratch.take(1000);
    expect(first.length).toBe(1000);
    expect(second.buffer).not.toBe(first.buffer);
    scratch.give(first);
    const again = scratch.take(600);
    expect(again.buffer).toBe(first.buffer);
    expect(again.length).toBe(600);
    // nothing is free now: a new take gets fresh memory, not the block that is out
    expect(scratch.take(10).buffer).not.toBe(first.buffer);
  });

  it("gives a block back once even when it is given back twice", () => {
    const scratch = new ScratchBuffers();
    const block = scratch.take(64);
    scratch.give(block);
    scratch.give(block);
    const a = scratch.take(64);
    const b = scratch.take(64);
    expect(a.buffer).toBe(block.buffer);
    expect(b.buffer).not.toBe(block.buffer);
  });

  it("serves a smaller request from a larger block, never a larger one from a smaller block", () => {
    const scratch = new ScratchBuffers();
    const small = scratch.take(100);
    scratch.give(small);
    const large = scratch.take(200);
    expect(large.buffer).not.toBe(small.buffer);
    expect(large.length).toBe(200);
  });
});

describe("PageSplicer line reuse", () => {
  const pageOf = (fill: number) => {
    const bytes = Buffer.alloc(96 * 1024, fill);
    return { bytes: bytes.length, eof: true, encoding: "base64", base64: bytes.toString("base64") };
  };

  it("keeps a line intact until its write finishes, then reuses its memory", async () => {
    const splicer = new PageSplicer();
    const written: { line: Buffer; copy: Buffer; finish: () => void }[] = [];
    const write = (line: Buffer) =>
      new Promise<void>((resolve) => {
        written.push({ line, copy: Buffer.from(line), finish: resolve });
      });
    const send = (value: object, id: number) =>
      splicer.sendSpliced({ result: splicer.result(value), jsonrpc: "2.0", id }, write)!;
    const first = pageOf(0x41);
    const second = pageOf(0x42);
    const sentFirst = send(first, 1);
    const sentSecond = send(second, 2); // while the first line is still being written
    expect(written).toHaveLength(2);
    expect(written[1]!.line.buffer).not.toBe(written[0]!.line.buffer);
    expect(written[0]!.line.equals(written[0]!.copy)).toBe(true);
    const expected = (value: object, id: number) =>
      Buffer.from(JSON.stringify({ result: successResult(value), jsonrpc: "2.0", id }) + "\n");
    expect(written[0]!.copy.equals(expected(first, 1))).toBe(true);
    expect(written[1]!.copy.equals(expected(second, 2))).toBe(true);
    written[0]!.finish();
    await sentFirst;
    // the first line's memory is free again: the next page is built in it, byte-exact
    const third = pageOf(0x43);
    const sentThird = send(third, 3);
    expect(written[2]!.line.buffer).toBe(written[0]!.line.buffer);
    expect(written[2]!.line.equals(expected(third, 3))).toBe(true);
    expect(written[1]!.line.equals(written[1]!.copy)).toBe(true);
    written[1]!.finish();
    written[2]!.finish();
    await Promise.all([sentSecond, sentThird]);
  });
});
