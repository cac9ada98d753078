// Bench rows of SPEC §16: system_output `grep` over a 100 MiB artifact for a rare pattern (≥ 100
// MiB/s) and for a pattern with no literal text (≥ 50 MiB/s), client parse included, following
// nextOffset until eof (each call scans at most 64 MiB or 2 s). The two patterns' scans alternate
// in the same run, so their ratio holds on a busy machine. The reference is the same bytes read
// from the artifact file and searched with Buffer.indexOf in this process. Prints one JSON line on
// stdout (bench/run.mjs shows it, `noLiteral` is the second row); progress on stderr.
//
// Environment: BENCH_CLI_ENTRY (the dist/cli/main.js to run; default the repo's), BENCH_RUNS
// (scans; default 5, BENCH_QUICK=1: 2), BENCH_TMP (where to put the temp dir).

import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchWorkspace, callTool, now, p50 } from "./lib.mjs";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI_ENTRY = process.env.BENCH_CLI_ENTRY ?? path.join(REPO_ROOT, "dist/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 2 : 5));
const MiB = 1024 * 1024;
/** SPEC §16: ≥ 100 MiB/s for the rare pattern, ≥ 50 MiB/s for one with no literal text. */
const TARGET_MIB_PER_SECOND = 100;
const TARGET_NO_LITERAL_MIB_PER_SECOND = 50;
/** A line of ordinary test output, and the rare one the pattern finds (once per 10 MiB). */
const PATTERN = process.env.BENCH_GREP_PATTERN ?? "FAILED: test_\\w+ \\(timeout\\)";
/** No literal text (classes, a repeat, an anchor): no substring search can skip lines for it. */
const NO_LITERAL_PATTERN = process.env.BENCH_GREP_NO_LITERAL_PATTERN ?? "^[A-Z]{6}\\W";

const workspace = benchWorkspace("grep-", { node: { candidates: [process.execPath] } });
const { tmp: TMP, artifactDir } = workspace;

// 100 MiB of 80-byte log lines; every 10 MiB one "FAILED: test_… (timeout)" line.
const WRITER = [
  "const line = (i) => ('ok ' + i + ' test_case_' + (i % 997) + ' passed in ' + (i % 89) + ' ms').padEnd(79, '.') + '\\n';",
  "const lines = 10 * 1024 * 1024 / 80;",
  "for (let block = 0; block < 10; block++) {",
  "  let s = ''; for (let i = 0; i < lines - 1; i++) s += line(block * lines + i);",
  "  s += ('FAILED: test_block_' + block + ' (timeout)').padEnd(79, ' ') + '\\n';",
  "  process.stdout.write(s);",
  "}",
].join("\n");

const server = workspace.serve(CLI_ENTRY);
try {
  await server.initialize();
  const made = await callTool(
    server,
    "system_exec",
    { program: "node", args: ["-e", WRITER], timeoutMs: 300_000 },
    300_000,
  );
  if (made.artifact.status !== "published") throw new Error(`no artifact: ${JSON.stringify(made)}`);
  const id = made.artifact.id;
  const total = made.stdout.totalBytes;
  process.stderr.write(`grep bench: ${(total / MiB).toFixed(1)} MiB artifact ${id}\n`);

  const scanOnce = async (pattern = PATTERN) => {
    const start = now();
    let offset = 0;
    let matches = 0;
    let calls = 0;
    for (;;) {
      const page = await callTool(
        server,
        "system_output",
        { id, stream: "stdout", offset, grep: { pattern } },
        60_000,
      );
      calls++;
      matches += page.matches.length;
      offset = page.nextOffset;
      if (page.eof) break;
    }
    return { ms: now() - start, matches, calls };
  };
  await scanOnce(); // warm-up: page cache, re2js loaded
  await scanOnce(NO_LITERAL_PATTERN);
  const scans = [];
  const noLiteralScans = [];
  for (let i = 0; i < RUNS; i++) {
    scans.push(await scanOnce());
    noLiteralScans.push(await scanOnce(NO_LITERAL_PATTERN));
  }
  if ([...scans, ...noLiteralScans].some((s) => s.matches !== 10))
    throw new Error(`expected 10 matches: ${JSON.stringify({ scans, noLiteralScans })}`);

  // Reference: the artifact's stdout file read whole and searched with Buffer.indexOf here.
  const published = path.join(artifactDir, "published", id);
  const file = readdirSync(published).find((name) => name.startsWith("stdout"));
  const reference = [];
  for (let i = 0; i < RUNS; i++) {
    const start = now();
    const bytes = readFileSync(path.join(published, file));
    let at = -1;
    let hits = 0;
    while ((at = bytes.indexOf("FAILED: test_", at + 1)) >= 0) hits++;
    if (hits !== 10) throw new Error(`reference found ${hits}`);
    reference.push(now() - start);
  }
  const ms = p50(scans.map((s) => s.ms));
  const mibPerSecond = total / MiB / (ms / 1000);
  const referenceMiBs = total / MiB / (p50(reference) / 1000);
  const noLiteralMs = p50(noLiteralScans.map((s) => s.ms));
  const noLiteralMiBs = total / MiB / (noLiteralMs / 1000);
  console.log(
    JSON.stringify({
      name: "system_output grep over a 100 MiB artifact, rare pattern, p50 of whole scans",
      server: `${mibPerSecond.toFixed(0)} MiB/s (${ms.toFixed(0)} ms, ${scans[0].calls} calls)`,
      reference: `${referenceMiBs.toFixed(0)} MiB/s readFile + Buffer.indexOf in the bench`,
      mibPerSecond,
      ms,
      calls: scans[0].calls,
      referenceMiBs,
      pattern: PATTERN,
      runs: RUNS,
      pass: mibPerSecond >= TARGET_MIB_PER_SECOND,
      noLiteral: {
        name: "system_output grep over a 100 MiB artifact, pattern with no literal text, p50",
        server: `${noLiteralMiBs.toFixed(0)} MiB/s (${noLiteralMs.toFixed(0)} ms, ${noLiteralScans[0].calls} calls)`,
        reference: `${mibPerSecond.toFixed(0)} MiB/s the rare literal pattern, same run`,
        mibPerSecond: noLiteralMiBs,
        ms: noLiteralMs,
        calls: noLiteralScans[0].calls,
        pattern: NO_LITERAL_PATTERN,
        ratioToLiteral: noLiteralMiBs / mibPerSecond,
        pass: noLiteralMiBs >= TARGET_NO_LITERAL_MIB_PER_SECOND,
      },
    }),
  );
} finally {
  await server.close();
  rmSync(TMP, { recursive: true, force: true });
}
