// The block prefilter of grep (src/search/block-pattern.ts) never changes a result: for generated
// streams (CR line ends, long lines, invalid UTF-8, empty lines) and literal-free patterns with
// anchors and word boundaries, a scan with the prefilter finds exactly the matches (offsets, line
// numbers, texts) of a scan that matches every line on its own.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLinePattern, type LinePattern } from "../src/search/line-pattern.js";
import { grepStream, type StreamSource } from "../src/search/grep.js";

/** A large program: its lines and blocks are cut at a few hundred bytes, below the long piece. */
const LARGE = "^[a-zA-Z7 ]{1,900}$";
const PATTERNS = [
  LARGE,
  "^[A-Z]{2}\\W",
  "[0-9]$",
  "\\b\\d\\b",
  "^$",
  "\\s[a-z]+\\s",
  "[é]\\W?",
  "\\B.$",
  "^.{3}$",
];
const PIECES = ["a", "B", "C", "7", " ", "\r", "\n", "\n", "é", "\xff", "AB:", "x".repeat(300)].map(
  (piece) => (piece === "\xff" ? Buffer.from([0xff]) : Buffer.from(piece)),
);

function source(bytes: Buffer): StreamSource {
  return {
    key: `mem-${Math.random()}`,
    length: bytes.length,
    final: true,
    read: async (offset: number, length: number) => bytes.subarray(offset, offset + length),
  } as StreamSource;
}

async function matches(pattern: LinePattern, bytes: Buffer, offset: number) {
  const page = await grepStream(source(bytes), offset, pattern, 1000);
  return page.matches;
}

describe("grep block prefilter", () => {
  it("literal-free patterns get a prefilter; \\A, \\z and flag groups do not", async () => {
    expect((await compileLinePattern("^[A-Z]{6}\\W", false, "p")).block).toBeDefined();
    expect((await compileLinePattern("\\A[a-z]", false, "p")).block).toBeUndefined();
    expect((await compileLinePattern("[a-z]\\z", false, "p")).block).toBeUndefined();
    expect((await compileLinePattern("(?-m)^a", false, "p")).block).toBeUndefined();
    expect((await compileLinePattern("FAILED: \\w+", false, "p")).block).toBeUndefined();
    const large = await compileLinePattern(LARGE, false, "p");
    expect(large.block!.maxBytes).toBeLessThan(2000);
  });

  it("a line ending in CR LF matches `$` as if the CR were not there", async () => {
    const pattern = await compileLinePattern("[0-9]$", false, "p");
    expect(pattern.block).toBeDefined();
    const found = await matches(pattern, Buffer.from("ab\r\nc7\r\nzz\n"), 0);
    expect(found).toEqual([{ offset: 4, line: 2, text: "c7" }]);
  });

  it("a line longer than the matched prefix is matched on its prefix, as without the prefilter", async () => {
    const pattern = await compileLinePattern(LARGE, false, "p");
    const long = "x".repeat(700) + "é"; // its first bytes match; the whole line does not
    const found = await matches(pattern, Buffer.from(`é\n${long}\né\n`), 0);
    expect(found.map((m) => [m.offset, m.line])).toEqual([[3, 2]]);
  });

  it("finds exactly what line-by-line matching finds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATTERNS),
        fc.boolean(),
        fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }),
        fc.nat(50),
        async (text, ignoreCase, pieces, offset) => {
          const bytes = Buffer.concat(pieces);
          const withBlock = await compileLinePattern(text, ignoreCase, "p");
          expect(withBlock.block).toBeDefined();
          // No line inside a block is ever cut: a block is at most one line's matched bytes.
          expect(withBlock.block!.maxBytes).toBeLessThanOrEqual(withBlock.bounded.maxLineBytes);
          const lineByLine: LinePattern = { bounded: withBlock.bounded };
          const start = Math.min(offset, bytes.length);
          expect(await matches(withBlock, bytes, start)).toEqual(
            await matches(lineByLine, bytes, start),
          );
        },
      ),
      { numRuns: 600 },
    );
  });
});
