// system_output's grep search mode through the real server (SPEC §3.3): matches with byte offsets
// and line numbers counted from the stream start, scans that start later (also inside a line or
// from the end), maxMatches, ignoreCase, bad patterns, and a running execution's spool.

import { describe, expect, it } from "vitest";
import { compileLinePattern, requiredLiteral } from "../src/search/line-pattern.js";
import {
  backgroundNodeManifest,
  errorText,
  shareServer,
  waitForLine,
  type TestServer,
} from "./helpers/server.js";

let server: TestServer;

shareServer(backgroundNodeManifest(), [], (started) => (server = started));

/** 20,000 lines "ok line N", every 5000th "FAIL test N"; line N is line number N. */
const LINES = 20_000;
const lineText = (i: number) => (i % 5000 === 0 ? `FAIL test ${i}` : `ok line ${i}`);
const lineOffset = (n: number) => {
  let offset = 0;
  for (let i = 1; i < n; i++) offset += Buffer.byteLength(lineText(i)) + 1;
  return offset;
};
const SCRIPT =
  "let s = ''; for (let i = 1; i <= 20000; i++) " +
  "s += (i % 5000 === 0 ? 'FAIL test ' + i : 'ok line ' + i) + '\\n'; process.stdout.write(s)";
const TOTAL = lineOffset(LINES + 1);

let artifactId: string | undefined;
async function artifact(): Promise<string> {
  if (artifactId) return artifactId;
  const result = await server.exec({ program: "node", args: ["-e", SCRIPT] });
  expect(result.stdout.totalBytes).toBe(TOTAL);
  expect(result.artifact.status).toBe("published");
  artifactId = result.artifact.id as string;
  return artifactId;
}

async function grep(args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await server.call("system_output", { stream: "stdout", offset: 0, ...args });
  expect(result.isError, errorText(result)).toBe(false);
  return result.structuredContent as Record<string, any>;
}

const fails = [5000, 10_000, 15_000, 20_000].map((n) => ({
  offset: lineOffset(n),
  line: n,
  text: `FAIL test ${n}`,
}));

describe("grep over an artifact", () => {
  it("finds every matching line with its byte offset, line number and text", async () => {
    const id = await artifact();
    const found = await grep({ id, grep: { pattern: "FAIL test \\d+" } });
    expect(found).toEqual({
      offset: 0,
      bytes: TOTAL,
      nextOffset: TOTAL,
      eof: true,
      encoding: "utf8",
      matches: fails,
      truncated: false,
      scanLimited: false,
    });
  });

  it("counts line numbers from the stream start when the scan starts later", async () => {
    const id = await artifact();
    // inside line 7000: the scan starts at line 7001
    const inside = lineOffset(7000) + 3;
    const later = await grep({ id, offset: inside, grep: { pattern: "^ok line 700[1-3]$" } });
    expect(later.offset).toBe(inside);
    expect(later.matches).toEqual(
      [7001, 7002, 7003].map((n) => ({ offset: lineOffset(n), line: n, text: lineText(n) })),
    );
    // exactly at a line start: that line is scanned
    const atStart = await grep({
      id,
      offset: lineOffset(7000),
      grep: { pattern: "^ok line 7000$" },
    });
    expect(atStart.matches).toEqual([
      { offset: lineOffset(7000), line: 7000, text: "ok line 7000" },
    ]);
    // from the end
    const tail = await grep({ id, offset: -100, grep: { pattern: "FAIL" } });
    expect(tail.offset).toBe(TOTAL - 100);
    expect(tail.matches).toEqual([fails[3]]);
  });

  it("maxMatches stops the scan: truncated, and nextOffset continues it", async () => {
    const id = await artifact();
    const first = await grep({ id, grep: { pattern: "FAIL", maxMatches: 2 } });
    expect(first.matches).toEqual(fails.slice(0, 2));
    expect(first).toMatchObject({ truncated: true, scanLimited: false, eof: false });
    expect(first.nextOffset).toBe(lineOffset(10_001));
    const rest = await grep({
      id,
      offset: first.nextOffset,
      grep: { pattern: "FAIL", maxMatches: 2 },
    });
    expect(rest.matches).toEqual(fails.slice(2));
    // the last match is the last line: nothing is left, so the scan reached the end
    expect(rest).toMatchObject({ nextOffset: TOTAL, eof: true });
  });

  it("ignoreCase", async () => {
    const id = await artifact();
    expect((await grep({ id, grep: { pattern: "fail test" } })).matches).toEqual([]);
    const any = await grep({ id, grep: { pattern: "fail test", ignoreCase: true } });
    expect(any.matches).toEqual(fails);
  });

  it("a pattern without a literal is matched line by line too", async () => {
    const id = await artifact();
    const found = await grep({ id, grep: { pattern: "^[A-Z]+ t", maxMatches: 1000 } });
    expect(found.matches).toEqual(fails);
    const grouped = await grep({ id, grep: { pattern: "(FAIL|PASS) test (5|20)000$" } });
    expect(grouped.matches).toEqual([fails[0], fails[3]]);
  });

  it("a bad pattern is INVALID_PATTERN; maxMatches outside 1 … 1000 is INVALID_REQUEST", async () => {
    const id = await artifact();
    const call = (grepArgs: Record<string, unknown>) =>
      server.call("system_output", { id, stream: "stdout", offset: 0, grep: grepArgs });
    expect(errorText(await call({ pattern: "(" }))).toMatch(/^INVALID_PATTERN: grep.pattern /);
    expect(errorText(await call({ pattern: "x".repeat(257) }))).toMatch(/^INVALID_PATTERN: /);
    for (const maxMatches of [0, 1001, -1]) {
      expect(errorText(await call({ pattern: "a", maxMatches }))).toMatch(
        /^INVALID_REQUEST: grep.maxMatches must be an integer from 1 to 1000/,
      );
    }
    expect(errorText(await call({ pattern: "a", bogus: 1 }))).toMatch(/^INVALID_REQUEST: /);
    const past = await server.call("system_output", {
      id,
      stream: "stdout",
      offset: TOTAL + 1,
      grep: { pattern: "a" },
    });
    expect(errorText(past)).toMatch(/^INVALID_OUTPUT_OFFSET: /);
  });

  it("match text is the line without its newline or CR, at most 1 KiB, on a code point", async () => {
    const script =
      "process.stdout.write('x\\r\\n' + 'é'.repeat(700) + 'END\\n');" +
      "process.stderr.write(Buffer.alloc(40000, 'e'))";
    const result = await server.exec({ program: "node", args: ["-e", script] });
    const id = result.artifact.id;
    const found = await grep({ id, grep: { pattern: "^x$|END" } });
    expect(found.matches[0]).toEqual({ offset: 0, line: 1, text: "x" });
    expect(found.matches[1]).toMatchObject({ offset: 3, line: 2 });
    expect(found.matches[1].text).toBe("é".repeat(512));
  });
});

describe("the per-call budget", () => {
  it("stops at 64 MiB (or 2 s) with scanLimited and nextOffset; the event loop stays free", async () => {
    const MiB = 1024 * 1024;
    // 72 MiB of 100-byte lines, the only match on the very last line.
    const script =
      "const line = Buffer.from('y'.repeat(99) + '\\n'); const block = Buffer.concat(Array(10486).fill(line));" +
      "for (let i = 0; i < 72; i++) process.stdout.write(block);" +
      "process.stdout.write('NEEDLE here\\n');";
    const result = await server.exec({ program: "node", args: ["-e", script], timeoutMs: 120_000 });
    expect(result.artifact.status).toBe("published");
    const id = result.artifact.id;
    const total = result.stdout.totalBytes as number;
    expect(total).toBeGreaterThan(70 * MiB);

    let pingAnswered = 0;
    let grepAnswered = 0;
    let order = 0;
    const scan = grep({ id, grep: { pattern: "NEEDLE" } }).then((page) => {
      grepAnswered = ++order;
      return page;
    });
    const ping = server.call("system_environment").then(() => (pingAnswered = ++order));
    const [first] = await Promise.all([scan, ping]);
    // answered while the scan was running: the scan yields between slices
    expect(pingAnswered).toBeLessThan(grepAnswered);
    expect(first).toMatchObject({ scanLimited: true, truncated: false, eof: false, matches: [] });
    expect(first.bytes).toBeLessThanOrEqual(64 * MiB + MiB);
    expect(first.nextOffset).toBe(first.bytes);
    let page = first;
    const matches = [];
    for (let calls = 0; !page.eof && calls < 200; calls++) {
      page = await grep({ id, offset: page.nextOffset, grep: { pattern: "NEEDLE" } });
      matches.push(...page.matches);
    }
    expect(page.eof).toBe(true);
    expect(matches).toEqual([{ offset: total - 12, line: 72 * 10486 + 1, text: "NEEDLE here" }]);
  });
});

describe("grep over a running execution", () => {
  it("scans the bytes so far: eof false, not truncated, not limited; later calls continue", async () => {
    const script =
      "let i = 0; const t = setInterval(() => { i++;" +
      "process.stdout.write((i === 3 ? 'ERROR three' : 'tick ' + i) + '\\n'); }, 20);";
    const handle = await server.exec({ program: "node", args: ["-e", script], background: true });
    try {
      // until reads the spool: once it matched "tick 5" a scan sees the lines up to it
      await waitForLine(server, handle.executionId, "^tick 5$", { stream: "stdout" });
      const so = await grep({ executionId: handle.executionId, grep: { pattern: "ERROR|tick 5" } });
      expect(so.matches).toEqual([
        { offset: 14, line: 3, text: "ERROR three" },
        { offset: 33, line: 5, text: "tick 5" },
      ]);
      expect(so).toMatchObject({ eof: false, truncated: false, scanLimited: false });
      expect(so.nextOffset).toBeGreaterThanOrEqual(40);
      // continue from where it stopped: line numbers still count from the stream start
      await server.call("system_wait", {
        executionId: handle.executionId,
        waitMs: 20_000,
        until: { pattern: "^tick 8$", stream: "stdout" },
      });
      const more = await grep({
        executionId: handle.executionId,
        offset: so.nextOffset,
        grep: { pattern: "^tick", maxMatches: 1 },
      });
      const next = more.matches[0];
      expect(next.offset).toBe(so.nextOffset);
      expect(next.line).toBeGreaterThanOrEqual(6);
      expect(next.text).toBe(`tick ${next.line}`);
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId });
    }
  });
});

describe("the literal prefilter", () => {
  it("is taken only when every match must contain it", () => {
    expect(requiredLiteral("FAIL test \\d+")).toBe("FAIL test ");
    expect(requiredLiteral("error: .*timeout")).toBe("error: ");
    expect(requiredLiteral("ab*c")).toBe("a");
    expect(requiredLiteral("abc+d")).toBe("abc");
    expect(requiredLiteral("\\.jsx?$")).toBe(".js");
    expect(requiredLiteral("[abc]def")).toBe("def");
    expect(requiredLiteral("a|b")).toBeUndefined();
    expect(requiredLiteral("(foo)?bar")).toBe("bar");
    expect(requiredLiteral("(FAILED|FATAL): test_\\w+ \\(timeout\\)")).toBe(" (timeout)");
    expect(requiredLiteral("x(a|b)+yz|q")).toBeUndefined();
    expect(requiredLiteral("(?i)abcdef")).toBeUndefined();
    expect(requiredLiteral("(a(b)c")).toBeUndefined();
    expect(requiredLiteral("\\x41BC")).toBeUndefined();
  });

  it("is dropped with ignoreCase when the literal has letters", async () => {
    expect((await compileLinePattern("FAIL test", true, "p")).literal).toBeUndefined();
    expect((await compileLinePattern("1234", true, "p")).literal).toEqual(Buffer.from("1234"));
    expect((await compileLinePattern("FAIL test", false, "p")).literal).toEqual(
      Buffer.from("FAIL test"),
    );
  });
});
