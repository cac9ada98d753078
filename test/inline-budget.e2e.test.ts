// The inline budget both excerpts share, and the escaped-length guard (SPEC §7), through the real
// server: exact bytes for each share case, the --max-output-bytes compatibility rule, and results
// of control characters that every host still shows whole.

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { errorText, shareServer, withServer, type TestServer } from "./helpers/server.js";

/** 61 bytes (prime): a copy of the stream at a wrong offset shows a different excerpt. */
const PATTERN = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX\n";
const marker = (n: number) => `\n[... ${n} bytes omitted ...]\n`;
const MiB = 1024 * 1024;

let server: TestServer;

shareServer(undefined, [], (started) => {
  server = started;
});

/** `node -e` writing `out` bytes of `fill` to stdout and `err` bytes to stderr. */
function writer(out: number, err: number, fill = PATTERN, errFill = PATTERN): string[] {
  const script =
    "const [o, e, f, g] = process.argv.slice(1);" +
    "process.stdout.write(Buffer.alloc(Number(o), f));" +
    "process.stderr.write(Buffer.alloc(Number(e), g));";
  return ["-e", script, String(out), String(err), fill, errFill];
}

/** A head cut back to just after its last newline, when that newline is in its final quarter. */
function alignHead(head: Buffer): Buffer {
  const at = head.lastIndexOf(10);
  return at >= 0 && at >= head.length - Math.ceil(head.length / 4)
    ? head.subarray(0, at + 1)
    : head;
}

/** A tail started just after its first newline, when that newline is in its first quarter. */
function alignTail(tail: Buffer): Buffer {
  const at = tail.indexOf(10);
  return at >= 0 && at < Math.ceil(tail.length / 4) ? tail.subarray(at + 1) : tail;
}

/** The excerpt §7 (Revision 3: line-aligned cuts) prescribes for ASCII bytes with this share and head. */
function expected(total: number, share: number, head: number, fill = PATTERN) {
  const bytes = Buffer.alloc(total, fill);
  if (total <= share) {
    return { truncated: false, totalBytes: total, omittedBytes: 0, text: bytes.toString() };
  }
  const shownHead = alignHead(bytes.subarray(0, head));
  const shownTail = alignTail(bytes.subarray(total - (share - head)));
  const omitted = total - shownHead.length - shownTail.length;
  const text = shownHead.toString() + marker(omitted) + shownTail.toString();
  return {
    truncated: true,
    totalBytes: total,
    omittedBytes: omitted,
    omittedFrom: shownHead.length,
    text,
  };
}

async function run(target: TestServer, out: number, err: number, fill?: string, errFill?: string) {
  const result = await target.call("system_exec", {
    program: "node",
    args: writer(out, err, fill, errFill),
  });
  expect(result.isError, errorText(result)).toBe(false);
  return result;
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, any>;
const textBlock = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe("the shared budget (default 24576)", () => {
  it("both small: each stream whole", async () => {
    const { stdout, stderr } = structured(await run(server, 12_000, 12_000));
    expect(stdout).toMatchObject(expected(12_000, 12_288, 3072));
    expect(stderr).toMatchObject(expected(12_000, 12_288, 3072));
  });

  it("one big: the small stream whole, the big one gets the rest (2 KB + 500 KB)", async () => {
    const { stdout, stderr } = structured(await run(server, 500_000, 2048));
    expect(stderr).toMatchObject(expected(2048, 2048, 512));
    // share 24576 − 2048 = 22528, head a quarter of it
    expect(stdout).toMatchObject(expected(500_000, 22_528, 5632));
  });

  it("both big: half each", async () => {
    const { stdout, stderr } = structured(await run(server, 100_000, 40_000));
    expect(stdout).toMatchObject(expected(100_000, 12_288, 3072));
    expect(stderr).toMatchObject(expected(40_000, 12_288, 3072));
  });

  it("one stream just over half: both over half means half each", async () => {
    const { stdout, stderr } = structured(await run(server, 12_289, 12_289));
    expect(stdout).toMatchObject(expected(12_289, 12_288, 3072));
    expect(stderr).toMatchObject(expected(12_289, 12_288, 3072));
  });

  it("limits report the budget and the head of a whole-budget share", async () => {
    const report = structured(await server.call("system_environment"));
    expect(report.limits.inlineBudgetBytes).toBe(24_576);
    expect(report.limits.inlineHeadBytes).toBe(6144);
    expect(report.limits.maxOutputBytes).toBe(32_768);
  });

  it("running snapshots share by the totals so far", async () => {
    const script =
      "process.stderr.write(Buffer.alloc(2048, 'e'));" +
      "process.stdout.write(Buffer.alloc(100000, 'o'), () => process.stderr.write('\\nready\\n'));" +
      "setTimeout(() => {}, 30000);";
    const handle = structured(
      await server.call("system_exec", {
        program: "node",
        args: ["-e", script],
        yieldMs: 200,
        timeoutMs: 60_000,
      }),
    );
    try {
      // full: the whole output so far (not only what is new since the handle, §19 Revision 3)
      const waited = await server.call("system_wait", {
        executionId: handle.executionId,
        waitMs: 20_000,
        until: { pattern: "^ready$", stream: "stderr" },
        full: true,
      });
      const snapshot = structured(waited);
      expect(snapshot.status).toBe("running");
      expect(snapshot.match).toBeDefined();
      expect(snapshot.stderr).toMatchObject({ truncated: false, totalBytes: 2055, sinceOffset: 0 });
      expect(snapshot.stdout).toMatchObject({
        ...expected(100_000, 24_576 - 2055, 5630, "o"),
        sinceOffset: 0,
      });
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId });
    }
  });
});

describe("--max-output-bytes alone: per stream, no sharing", () => {
  it("each stream keeps up to the max, whatever the other does", async () => {
    await withServer(undefined, ["--max-output-bytes", "1000"], async (own) => {
      const small = structured(await run(own, 100, 5000));
      expect(small.stdout).toMatchObject(expected(100, 1000, 250));
      // not 2000 − 100: the budget is 2 × max, but each share stays capped at the max
      expect(small.stderr).toMatchObject(expected(5000, 1000, 250));
      const big = structured(await run(own, 5000, 5000));
      expect(big.stdout).toMatchObject(expected(5000, 1000, 250));
      expect(big.stderr).toMatchObject(expected(5000, 1000, 250));
      const report = structured(await own.call("system_environment"));
      expect(report.limits).toMatchObject({ inlineBudgetBytes: 2000, inlineHeadBytes: 250 });
    });
  });
});

describe("--inline-budget-bytes and --inline-head-bytes", () => {
  it("a given budget is shared; a given head is kept within each share", async () => {
    const flags = ["--inline-budget-bytes", "4000", "--inline-head-bytes", "300"];
    await withServer(undefined, flags, async (own) => {
      const one = structured(await run(own, 100, 10_000));
      expect(one.stdout).toMatchObject(expected(100, 3900, 300));
      expect(one.stderr).toMatchObject(expected(10_000, 3900, 300));
      const both = structured(await run(own, 10_000, 10_000));
      expect(both.stdout).toMatchObject(expected(10_000, 2000, 300));
      const report = structured(await own.call("system_environment"));
      expect(report.limits).toMatchObject({ inlineBudgetBytes: 4000, inlineHeadBytes: 300 });
    });
  });
});

describe("escaped length (§7): every default result stays under 40,000 characters", () => {
  /** Counts of `ch` in the excerpt text outside the omission marker. */
  function shownBytes(stream: Record<string, any>): number {
    const [head, tail = ""] = (stream.text as string).split(marker(stream.omittedBytes));
    return Buffer.byteLength(head!) + Buffer.byteLength(tail);
  }

  for (const [name, fill] of [
    ["\\x01", "\u0001"],
    ['"', '"'],
    ["\\", "\\"],
  ] as const) {
    it(`1 MiB of ${name} on both streams, exact byte accounting`, async () => {
      const result = await run(server, MiB, MiB, fill, fill);
      expect(textBlock(result).length).toBeLessThan(40_000);
      for (const stream of [structured(result).stdout, structured(result).stderr]) {
        expect(stream.truncated).toBe(true);
        expect(stream.totalBytes).toBe(MiB);
        expect(shownBytes(stream) + stream.omittedBytes).toBe(MiB);
        expect(shownBytes(stream)).toBeGreaterThan(0);
        expect(JSON.stringify(stream.text).length).toBeLessThan(16_000);
      }
      expect(structured(result).artifact.status).toBe("published");
    });
  }

  it('1 MiB of " on stdout alone: the head keeps its quarter, the tail is shortened first', async () => {
    const result = await run(server, MiB, 0, '"');
    expect(textBlock(result).length).toBeLessThan(40_000);
    const { stdout } = structured(result);
    const [head, tail] = (stdout.text as string).split(marker(stdout.omittedBytes));
    // head 6144 quotes = 12288 escaped characters; the tail gets the other 17712: 8856 quotes
    expect(head).toBe('"'.repeat(6144));
    expect(tail).toBe('"'.repeat(8856));
    expect(stdout.omittedBytes).toBe(MiB - 6144 - 8856);
  });

  it("1 MiB of \\x01 on stdout alone: the heads are cut once the tails are gone", async () => {
    const result = await run(server, MiB, 0, "\u0001");
    expect(textBlock(result).length).toBeLessThan(40_000);
    const { stdout } = structured(result);
    // 6144 bytes of head alone would escape to 36864 characters: 30000 / 6 = 5000 are kept
    expect(stdout.text).toBe("\u0001".repeat(5000) + marker(MiB - 5000));
    expect(stdout.omittedBytes).toBe(MiB - 5000);
  });

  it("a stream that fits its share but escapes too long is cut, flagged and published", async () => {
    const result = await run(server, 20_000, 0, "\u0001");
    expect(textBlock(result).length).toBeLessThan(40_000);
    const { stdout, artifact } = structured(result);
    expect(stdout.truncated).toBe(true);
    expect(stdout.omittedBytes).toBeGreaterThan(0);
    expect(shownBytes(stdout) + stdout.omittedBytes).toBe(20_000);
    expect(artifact.status).toBe("published");
    const page = structured(
      await server.call("system_output", {
        id: artifact.id,
        stream: "stdout",
        offset: 0,
        encoding: "base64",
        limit: 1_000_000,
      }),
    );
    expect(Buffer.from(page.base64, "base64").equals(Buffer.alloc(20_000, 1))).toBe(true);
  });

  it("ordinary text is not touched by the guard", async () => {
    const { stdout, stderr } = structured(await run(server, 500_000, 500_000));
    expect(stdout).toMatchObject(expected(500_000, 12_288, 3072));
    expect(stderr).toMatchObject(expected(500_000, 12_288, 3072));
  });

  it("no guard with a non-default budget (--max-output-bytes alone)", async () => {
    await withServer(undefined, ["--max-output-bytes", "32768"], async (own) => {
      const { stdout } = structured(await run(own, MiB, 0, "\u0001"));
      expect(stdout).toMatchObject(expected(MiB, 32_768, 8192, "\u0001"));
    });
  });
});
