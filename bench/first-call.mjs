// Bench row (issue 24): the first tools/call of a fresh server against a later one. The first call
// used to create an Ajv and compile its draft-07 meta-schema and the tool's schema (~40 ms); the
// build now precompiles the validators (scripts/build-tool-validators.mjs). Each of RUNS fresh
// servers is initialized and asked tools/list (as hosts do), then runs /bin/true LATER + 1 times;
// the p50 of the first calls is compared with the p50 of the later ones (the first excluded).
// Prints one JSON line on stdout (bench/run.mjs shows it); progress on stderr.
//
// Environment: BENCH_CLI_ENTRY (the dist/cli/main.js to run; default the repo's), BENCH_RUNS
// (fresh servers; default 15, BENCH_QUICK=1: 3), BENCH_TMP (where to put the temp dirs).

import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchWorkspace, callTool, firstExisting, now, p50 } from "./lib.mjs";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI_ENTRY = process.env.BENCH_CLI_ENTRY ?? path.join(REPO_ROOT, "dist/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 3 : 15));
/** Later calls per server; their p50 is the reference. */
const LATER = 10;
/** Issue 24: the first call ≤ 1.5 × a later one. */
const TARGET_RATIO = 1.5;

const TRUE = firstExisting("/bin/true", "/usr/bin/true");
const firsts = [];
const laters = [];
for (let run = 0; run < RUNS; run += 1) {
  const workspace = benchWorkspace("first-call-", { true: { candidates: [TRUE] } });
  const server = workspace.serve(CLI_ENTRY);
  try {
    await server.initialize();
    await server.request("tools/list", {});
    for (let call = 0; call <= LATER; call += 1) {
      const start = now();
      const result = await callTool(server, "system_exec", { program: "true" });
      const elapsed = now() - start;
      if (result.exitCode !== 0) throw new Error(`true exited ${result.exitCode}`);
      (call === 0 ? firsts : laters).push(elapsed);
    }
  } finally {
    await server.close();
    rmSync(workspace.tmp, { recursive: true, force: true });
  }
  process.stderr.write(`first-call: server ${run + 1}/${RUNS}\n`);
}

const first = p50(firsts);
const later = p50(laters);
const ratio = first / later;
console.log(
  JSON.stringify({
    name: "first tools/call of a fresh server, p50",
    server: `${first.toFixed(2)} ms`,
    reference: `a later call ${later.toFixed(2)} ms`,
    ratio,
    target: TARGET_RATIO,
    pass: ratio <= TARGET_RATIO,
    servers: RUNS,
    firsts,
  }),
);
