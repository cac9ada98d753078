// A child's pipes read into one reused buffer while the spool is still being created (SPEC §8,
// §16): the bytes that arrive meanwhile are kept and the published artifact is byte-exact.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import { ExecutionOutput } from "../src/output/execution-output.js";
import type { SpoolSource } from "../src/output/types.js";
import { useStore } from "./artifacts-helpers.js";

let store: ArtifactStore;
useStore((opened) => (store = opened), { once: true });

/** Seeded pseudo-random bytes, as the child below prints them. */
function bytesOf(seed: number, n: number): Buffer {
  let x = seed;
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

const PRINTER =
  "const f = (seed, n) => { let x = seed; const b = Buffer.alloc(n);" +
  " for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 24; } return b; };" +
  "const out = f(11, Number(process.argv[1])); const err = f(12, Number(process.argv[2]));" +
  "for (let i = 0; i < out.length; i += 100000) process.stdout.write(out.subarray(i, i + 100000));" +
  "process.stderr.write(err);";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

async function readAll(id: string, stream: "stdout" | "stderr"): Promise<Buffer> {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const page = await store.read(id, stream, offset, 1024 * 1024, "base64");
    parts.push(Buffer.from(page.base64 ?? "", "base64"));
    offset = page.nextOffset;
    if (page.eof) return Buffer.concat(parts);
  }
}

describe.runIf(process.platform !== "win32")("execution output from real pipes", () => {
  it("keeps every byte that arrives while a slow spool is created, and publishes them exactly", async () => {
    const outBytes = 3 * 1024 * 1024 + 7;
    const errBytes = 200_000;
    // the spool appears only after a while: reading must pause, not drop or reorder
    const slow: SpoolSource = {
      createStaging: async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return store.createStaging();
      },
    };
    const output = new ExecutionOutput(
      { maxOutputBytes: 8192, budgetBytes: 16384 },
      "always",
      slow,
    );
    const child = spawn(process.execPath, ["-e", PRINTER, String(outBytes), String(errBytes)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await Promise.all([
      output.consume("stdout", child.stdout),
      output.consume("stderr", child.stderr),
    ]);
    expect(output.totalBytes("stdout")).toBe(outBytes);
    expect(output.totalBytes("stderr")).toBe(errBytes);
    const outcome = await output.finish(false);
    expect(outcome.status).toBe("published");
    expect(sha(await readAll(outcome.id!, "stdout"))).toBe(sha(bytesOf(11, outBytes)));
    expect(sha(await readAll(outcome.id!, "stderr"))).toBe(sha(bytesOf(12, errBytes)));
  });
});
