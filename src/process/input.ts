// Writes `input` to the child's stdin once, then closes it; EPIPE is not an error (SPEC §3.1).

import type { Writable } from "node:stream";

const INPUT_CHUNK_BYTES = 64 * 1024;

/** Resolves to the number of bytes the pipe accepted before it closed (or all of them). */
export async function writeInput(stdin: Writable, input: Buffer | undefined): Promise<number> {
  stdin.on("error", () => {}); // EPIPE / ECONNRESET: the child closed its stdin early
  let accepted = 0;
  if (input) {
    for (let offset = 0; offset < input.length; offset += INPUT_CHUNK_BYTES) {
      const chunk = input.subarray(offset, offset + INPUT_CHUNK_BYTES);
      const ok = await new Promise<boolean>((resolve) => {
        if (stdin.destroyed || stdin.writableEnded) return resolve(false);
        stdin.write(chunk, (error) => resolve(!error));
      });
      if (!ok) break;
      accepted += chunk.length;
    }
  }
  if (!stdin.destroyed) stdin.end();
  return accepted;
}
