// Reading a child's pipe into one reused buffer (SPEC §16): every byte exactly once and in order,
// also when reading pauses and resumes; the child's own events are unaffected; a stream that is
// not a fresh pipe is left to the usual reading.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readIntoReusedBuffer } from "../src/output/pipe-reader.js";

/** A node child printing `bytes` pseudo-random bytes (seeded) on stdout, `err` on stderr. */
function printer(bytes: number, err = "") {
  const script =
    "let x = 7; const n = Number(process.argv[1]); const b = Buffer.alloc(n);" +
    "for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 24; }" +
    "process.stdout.write(b); process.stderr.write(process.argv[2]);";
  return spawn(process.execPath, ["-e", script, String(bytes), err], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function expectedBytes(n: number): Buffer {
  let x = 7;
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe.runIf(process.platform !== "win32")("reading a pipe into a reused buffer", () => {
  it("delivers every byte once, in order, pausing and resuming, and the child still closes", async () => {
    const size = 5 * 1024 * 1024 + 13;
    const child = printer(size, "on stderr");
    const closed = new Promise((resolve) => child.once("close", resolve));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let calls = 0;
    let views = new Set<ArrayBufferLike>();
    const reader = readIntoReusedBuffer(child.stdout!, (view) => {
      views.add(view.buffer);
      out.push(Buffer.from(view)); // the view is only valid during the call
      calls++;
      if (calls % 7 === 0) {
        setTimeout(() => reader!.resume(), 5);
        return false;
      }
      return true;
    });
    const errReader = readIntoReusedBuffer(child.stderr!, (view) => {
      err.push(Buffer.from(view));
      return true;
    });
    expect(reader).toBeDefined();
    expect(errReader).toBeDefined();
    await Promise.all([reader!.done, errReader!.done]);
    expect(await closed).toBe(0);
    const all = Buffer.concat(out);
    expect(all.length).toBe(size);
    expect(sha(all)).toBe(sha(expectedBytes(size)));
    expect(Buffer.concat(err).toString()).toBe("on stderr");
    expect(calls).toBeGreaterThan(1);
    expect(views.size).toBe(1); // one buffer for every read
    views = new Set();
  });

  it("destroy() ends the reading at once", async () => {
    const child = spawn("sleep", ["5"], { stdio: ["ignore", "pipe", "pipe"] });
    const reader = readIntoReusedBuffer(child.stdout!, () => true)!;
    expect(reader).toBeDefined();
    reader.destroy();
    await reader.done;
    child.kill("SIGKILL");
  });

  it("leaves a stream that is not a child's pipe, or has data buffered, to the usual reading", () => {
    const plain = new PassThrough();
    expect(readIntoReusedBuffer(plain, () => true)).toBeUndefined();
    plain.write("x");
    expect(plain.read()?.toString()).toBe("x");
    const child = printer(10);
    child.stdout!.unshift(Buffer.from("early"));
    expect(readIntoReusedBuffer(child.stdout!, () => true)).toBeUndefined();
    child.kill("SIGKILL");
  });
});
