// The token ledger (issue 25 part 1): a scripted agent session against the real server, counting
// the characters a model would read — the compact structuredContent (Codex, Claude Code) and the
// text block (DSH, Gemini CLI) — next to the bytes the programs printed.
//
// Session: 20 short calls in a temp git repo; one chatty build polled with system_wait (the issue's
// 3-minute build polled every 30 s; TOKEN_BUILD_SECONDS / TOKEN_POLL_SECONDS scale it down — the
// number of polls and the ratio are what matter); a second, identical build polled with
// `full: true` (what every poll cost before snapshots carried only what is new); one 5 MB output
// searched with grep and paged once.
//
// PASS/MISS: the delta poll part — the running handle and every running snapshot — must cost at
// most 1.2 × the build's own output + 400 characters per poll. The completed result that ends the
// loop is the Canonical Result of the whole streams (at most one inline budget, however many polls)
// and is shown on its own line (`poll-end`), as is everything for the `full: true` loop.
//
// Both forms (docs/results.md "Compact results"): the session runs once with compact results and
// once with `--result-detail full` (the Revision 3 shape); the compact session must cost at most
// half the full one, and the trivial call (a 5-byte output, cwd named) ≤ 100 characters.
//
// Standalone: `node bench/token-ledger.mjs` (after `npm run build`) prints a table per form on
// stderr and one JSON line on stdout. From bench/run.mjs: tokenLedger({ entry, env, tmp }).

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The build: 3 minutes, polled every 30 s. */
export const DEFAULT_BUILD_SECONDS = 180;
export const DEFAULT_POLL_SECONDS = 30;
/** The build prints this many lines a second (about 70 bytes each). */
const BUILD_LINES_PER_SECOND = 10;
/** Poll budget (issue 25): ≤ 1.2 × the build's output + 400 characters per poll. */
export const POLL_OUTPUT_FACTOR = 1.2;
export const POLL_OVERHEAD_CHARS = 400;
const BIG_OUTPUT_BYTES = 5 * 1024 * 1024;

const BUILD_SCRIPT = `
const [seconds, perSecond] = process.argv.slice(1).map(Number);
const end = Date.now() + seconds * 1000;
let n = 0;
const timer = setInterval(() => {
  n += 1;
  const step = String(n).padStart(6, "0");
  process.stdout.write("[build] step " + step + " compiling src/module-" + (n % 97) + ".ts ok\\n");
  if (n % 50 === 0) process.stderr.write("warning: step " + step + " took long\\n");
  if (Date.now() >= end) { clearInterval(timer); console.log("build finished: " + n + " steps"); }
}, 1000 / perSecond);
`;

const BIG_SCRIPT = `
const total = Number(process.argv[1]);
let written = 0, n = 0, chunk = "";
while (written < total) {
  n += 1;
  const line = (n === 40000 ? "ERROR test/feature.test.ts: expected 2, got 3" : "ok " + n + " test case passed") + "\\n";
  chunk += line; written += line.length;
  if (chunk.length > 65536) { process.stdout.write(chunk); chunk = ""; }
}
process.stdout.write(chunk);
`;

/** A ledger of calls: characters in both views and bytes printed. */
class Ledger {
  rows = [];
  add(part, tool, result, printedBytes) {
    const structured = result.structuredContent
      ? JSON.stringify(result.structuredContent).length
      : 0;
    const text = result.content?.[0]?.text?.length ?? 0;
    this.rows.push({ part, tool, structured, text, printedBytes });
  }
  sum(part) {
    const rows = this.rows.filter((r) => r.part === part);
    const total = (key) => rows.reduce((a, r) => a + r[key], 0);
    return {
      calls: rows.length,
      structuredChars: total("structured"),
      textChars: total("text"),
      printedBytes: total("printedBytes"),
    };
  }
}

/** Bytes a stream printed: its totalBytes, or in a compact `{ text }` the text itself. */
const streamBytes = (stream) =>
  stream === undefined ? 0 : (stream.totalBytes ?? Buffer.byteLength(stream.text ?? ""));
const printed = (report) => streamBytes(report?.stdout) + streamBytes(report?.stderr);

/** The trivial call of §16's row: a 5-byte output (`true\n`), with its cwd named. */
async function trivialCall(call, ledger, root) {
  const result = await call("system_exec", {
    program: "git",
    args: ["rev-parse", "--is-inside-work-tree"],
    cwd: root,
  });
  ledger.add("trivial", "system_exec", result, printed(result.structuredContent));
}

function gitRepo(dir) {
  const git = (...args) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.email", "bench@example.invalid");
  git("config", "user.name", "bench");
  for (let i = 1; i <= 5; i++) {
    writeFileSync(path.join(dir, `file-${i}.txt`), `content ${i}\n`.repeat(i * 3));
    git("add", ".");
    git("commit", "-q", "-m", `commit ${i}: add file-${i}`);
  }
  writeFileSync(path.join(dir, "file-1.txt"), "changed\n");
  writeFileSync(path.join(dir, "untracked.txt"), "new\n");
}

async function shortCalls(call, ledger) {
  const calls = [
    ["git", ["status"]],
    ["git", ["log", "-3"]],
    ["git", ["log", "--oneline", "-5"]],
    ["git", ["diff"]],
    ["git", ["diff", "--stat"]],
    ["git", ["branch", "--list"]],
    ["git", ["rev-parse", "HEAD"]],
    ["git", ["show", "--stat", "HEAD"]],
    ["node", ["--version"]],
    ["node", ["-e", "console.log(process.versions.v8)"]],
    ["ls", ["-la"]],
    ["ls", []],
    ["cat", ["file-2.txt"]],
    ["cat", ["file-3.txt"]],
    ["git", ["status", "--short"]],
    ["git", ["log", "-1", "--format=%H %s"]],
    ["git", ["ls-files"]],
    ["node", ["-p", "1 + 1"]],
    ["ls", ["-1"]],
    ["git", ["remote", "-v"]],
  ];
  for (const [program, args] of calls) {
    const result = await call("system_exec", { program, args });
    ledger.add("short", "system_exec", result, printed(result.structuredContent));
  }
}

/** Starts a build, then polls it with system_wait until it completes. */
async function pollBuild(call, ledger, part, { seconds, pollSeconds, full }) {
  const pollMs = pollSeconds * 1000;
  let result = await call("system_exec", {
    program: "node",
    args: ["-e", BUILD_SCRIPT, String(seconds), String(BUILD_LINES_PER_SECOND)],
    yieldMs: pollMs,
    timeoutMs: (seconds + 120) * 1000,
  });
  ledger.add(part, "system_exec", result, 0);
  let polls = 1;
  while (result.structuredContent?.status === "running") {
    const executionId = result.structuredContent.executionId;
    result = await call("system_wait", { executionId, waitMs: pollMs, ...(full && { full }) });
    const done = result.structuredContent?.status !== "running";
    // The completed result (the whole streams' Canonical Result, §19) is booked on its own line:
    // a fixed cost of at most one inline budget, whatever the number of polls.
    ledger.add(done ? `${part}-end` : part, "system_wait", result, 0);
    if (!done) polls += 1;
  }
  const printedBytes = printed(result.structuredContent);
  ledger.rows.find((r) => r.part === part).printedBytes = printedBytes;
  ledger.rows.find((r) => r.part === `${part}-end`).printedBytes = printedBytes;
  return polls;
}

async function bigOutput(call, ledger) {
  const result = await call("system_exec", {
    program: "node",
    args: ["-e", BIG_SCRIPT, String(BIG_OUTPUT_BYTES)],
  });
  const report = result.structuredContent;
  ledger.add("big", "system_exec", result, printed(report));
  const id = report.artifact.id;
  const grep = await call("system_output", {
    id,
    stream: "stdout",
    offset: 0,
    grep: { pattern: "ERROR" },
  });
  ledger.add("big", "system_output grep", grep, 0);
  const offset = grep.structuredContent.matches[0]?.offset ?? 0;
  const page = await call("system_output", {
    id,
    stream: "stdout",
    offset: Math.max(0, offset - 2048),
  });
  ledger.add("big", "system_output page", page, 0);
}

/** Runs the session against `node <entry> serve`; returns the ledger's sums and the verdict. */
export async function tokenLedger({
  entry,
  env,
  tmp,
  seconds = Number(process.env.TOKEN_BUILD_SECONDS ?? DEFAULT_BUILD_SECONDS),
  pollSeconds = Number(process.env.TOKEN_POLL_SECONDS ?? DEFAULT_POLL_SECONDS),
  detail = "compact",
}) {
  const root = path.join(tmp, "ledger-repo");
  mkdirSync(root, { recursive: true });
  gitRepo(root);
  const manifest = path.join(tmp, "ledger-manifest.json");
  const programs = {
    git: { candidates: ["/usr/bin/git"] },
    node: { candidates: [process.execPath] },
    ls: { candidates: ["/bin/ls", "/usr/bin/ls"] },
    cat: { candidates: ["/bin/cat", "/usr/bin/cat"] },
  };
  writeFileSync(manifest, JSON.stringify({ version: 2, programs }));
  const args = [entry, "serve", "--root", root, "--manifest", manifest];
  args.push("--artifact-dir", path.join(tmp, `ledger-artifacts-${detail}`));
  args.push("--result-detail", detail);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env,
    cwd: root,
    stderr: "ignore",
  });
  const client = new Client({ name: "token-ledger", version: "0.0.0" });
  await client.connect(transport);
  const call = (name, args) =>
    client.callTool({ name, arguments: args }, undefined, { timeout: (seconds + 180) * 1000 });
  const ledger = new Ledger();
  try {
    await trivialCall(call, ledger, root);
    await shortCalls(call, ledger);
    const [polls] = await Promise.all([
      pollBuild(call, ledger, "poll", { seconds, pollSeconds, full: false }),
      pollBuild(call, ledger, "poll-full", { seconds, pollSeconds, full: true }),
    ]);
    await bigOutput(call, ledger);
    const parts = Object.fromEntries(
      ["trivial", "short", "poll", "poll-end", "poll-full", "poll-full-end", "big"].map((p) => [
        p,
        ledger.sum(p),
      ]),
    );
    const poll = parts.poll;
    const budget = POLL_OUTPUT_FACTOR * poll.printedBytes + POLL_OVERHEAD_CHARS * polls;
    const worst = Math.max(poll.structuredChars, poll.textChars);
    // The whole session as the model reads it: the larger view of every part, but not the
    // `full: true` loop, which runs only to compare with the delta snapshots.
    const sessionChars = Object.entries(parts)
      .filter(([name]) => !name.startsWith("poll-full"))
      .reduce((sum, [, part]) => sum + Math.max(part.structuredChars, part.textChars), 0);
    return {
      detail,
      seconds,
      pollSeconds,
      polls,
      parts,
      sessionChars,
      pollBudgetChars: Math.round(budget),
      pass: worst <= budget,
    };
  } finally {
    await client.close();
  }
}

function table(report) {
  const lines = [
    `token ledger (${report.detail} results) — build ${report.seconds} s polled every ${report.pollSeconds} s (${report.polls} polls), session ${report.sessionChars} chars`,
    "| Part | Calls | structuredContent chars | text block chars | bytes printed |",
    "|---|---|---|---|---|",
  ];
  for (const [part, s] of Object.entries(report.parts)) {
    lines.push(
      `| ${part} | ${s.calls} | ${s.structuredChars} | ${s.textChars} | ${s.printedBytes} |`,
    );
  }
  lines.push(
    `poll part: ${Math.max(report.parts.poll.structuredChars, report.parts.poll.textChars)} chars ` +
      `vs budget ${report.pollBudgetChars} (1.2 × printed + 400 per poll): ${report.pass ? "PASS" : "MISS"}`,
  );
  return lines.join("\n");
}

export { table as tokenLedgerTable };

if (import.meta.url === `file://${process.argv[1]}`) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "scm-token-ledger-"));
  try {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: tmp,
      XDG_STATE_HOME: path.join(tmp, "state"),
      XDG_CACHE_HOME: path.join(tmp, "cache"),
    };
    const entry = path.join(here, "../dist/cli/main.js");
    const reports = [];
    for (const detail of ["compact", "full"]) {
      const report = await tokenLedger({ entry, env, tmp: path.join(tmp, detail), detail });
      console.error(table(report));
      reports.push(report);
    }
    console.log(JSON.stringify(reports));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
