// Static `doctor` on a generated 100-program manifest vs a bare `node -e ""` start (SPEC §16), and
// how long registering those 100 programs takes (SPEC §10: well under a second). Prints one JSON
// line on stdout. Plain Node ESM over dist/ (run `npm run build` first).
//
//   BENCH_CLI_ENTRY   the CLI entry (default dist/cli/main.js next to this folder)
//   BENCH_RUNS        timed runs per command (default 21; one untimed warm-up run each), the
//                     two commands alternating run by run

import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const CLI_ENTRY =
  process.env.BENCH_CLI_ENTRY ?? path.join(BENCH_DIR, "..", "dist", "cli", "main.js");
const DIST_DIR = path.dirname(path.dirname(CLI_ENTRY));
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const PROGRAM_COUNT = 100;
/** Programs are spread over this many searchPath directories, so lookups miss as well as hit. */
const DIRECTORY_COUNT = 10;
const TARGET_RATIO = 1.6;
/** SPEC §10: 100 programs register "well under a second". */
const REGISTRATION_BUDGET_MS = 1_000;
const RUN_TIMEOUT_MS = 60_000;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (ms) => Math.round(ms * 100) / 100;

/** A searchPath of DIRECTORY_COUNT directories holding PROGRAM_COUNT tiny executables. */
function writeWorld(dir) {
  const searchPath = [];
  for (let index = 0; index < DIRECTORY_COUNT; index += 1) {
    const bin = path.join(dir, `bin${index}`);
    mkdirSync(bin);
    searchPath.push(bin);
  }
  const programs = {};
  const probes = {};
  for (let index = 0; index < PROGRAM_COUNT; index += 1) {
    const name = `p${String(index).padStart(3, "0")}`;
    const file = path.join(searchPath[index % DIRECTORY_COUNT], name);
    writeFileSync(file, "#!/bin/sh\nexit 0\n");
    chmodSync(file, 0o755);
    programs[name] = {
      candidates: [`missing-${name}`, name],
      required: index % 2 === 0,
      policy: { defaultTimeoutMs: 10_000, maxTimeoutMs: 60_000 },
      environment: { set: { BENCH_PROGRAM: name } },
    };
    probes[name] = { args: ["--version"] };
  }
  const manifest = path.join(dir, "manifest.json");
  writeFileSync(manifest, JSON.stringify({ version: 2, searchPath, programs, probes }, null, 2));
  const root = path.join(dir, "root");
  mkdirSync(root);
  return { manifest, root };
}

/** Wall time of one `node args…` run, which must exit 0. */
function runNode(args) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, {
    stdio: ["ignore", "ignore", "pipe"],
    timeout: RUN_TIMEOUT_MS,
  });
  const elapsed = performance.now() - start;
  if (result.status !== 0) {
    throw new Error(`node ${args.join(" ")} exited ${result.status}: ${String(result.stderr)}`);
  }
  return elapsed;
}

/**
 * Median wall times of `node a…` and `node b…` over RUNS runs each, after one warm-up of each,
 * alternating run by run (and which goes first), and the median of the per-pair ratios b ÷ a:
 * this machine's start times are bimodal (a run lands in a slow or a fast mode), so the two
 * medians of separate series can sit in different modes, while a pair shares its moment.
 */
function timeInterleaved(a, b) {
  const times = { a: [], b: [] };
  const ratios = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const order = run % 2 === 0 ? ["a", "b"] : ["b", "a"];
    const pair = {};
    for (const which of order) pair[which] = runNode(which === "a" ? a : b);
    if (run === 0) continue;
    times.a.push(pair.a);
    times.b.push(pair.b);
    ratios.push(pair.b / pair.a);
  }
  return { a: median(times.a), b: median(times.b), ratio: median(ratios) };
}

/** Median time to load the catalog of the manifest in-process (what startup's registration costs). */
async function timeRegistration(manifest) {
  const url = pathToFileURL(path.join(DIST_DIR, "programs", "load-catalog.js")).href;
  const { loadCatalog } = await import(url);
  const times = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const start = performance.now();
    const catalog = await loadCatalog({ manifestPath: manifest, startupEnv: process.env });
    const elapsed = performance.now() - start;
    if (catalog.programs.size !== PROGRAM_COUNT) {
      throw new Error(
        `expected ${PROGRAM_COUNT} registered programs, got ${catalog.programs.size}`,
      );
    }
    if (run > 0) times.push(elapsed);
  }
  return median(times);
}

/** Median time from spawning `serve` with the manifest to its initialize response. */
async function timeServeInitialize(manifest, root) {
  const times = [];
  for (let run = 0; run <= Math.min(RUNS, 11); run += 1) {
    const start = performance.now();
    await new Promise((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [CLI_ENTRY, "serve", "--manifest", manifest, "--root", root],
        { stdio: ["pipe", "pipe", "ignore"] },
      );
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error("serve did not answer initialize in time"));
      }, RUN_TIMEOUT_MS);
      child.stdout.once("data", () => {
        clearTimeout(timer);
        if (run > 0) times.push(performance.now() - start);
        child.stdin.end();
        child.once("exit", resolve);
      });
      child.once("error", reject);
      child.stdin.write(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "bench", version: "0" },
          },
        }) + "\n",
      );
    });
  }
  return median(times);
}

async function main() {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "scm-bench-doctor-")));
  try {
    const { manifest, root } = writeWorld(dir);
    const {
      a: nodeMs,
      b: doctorMs,
      ratio,
    } = timeInterleaved(["-e", ""], [CLI_ENTRY, "doctor", "--manifest", manifest, "--root", root]);
    const registration = await timeRegistration(manifest);
    const serveInitializeMs = await timeServeInitialize(manifest, root);
    const report = {
      name: `Static doctor, ${PROGRAM_COUNT} programs, p50`,
      runs: RUNS,
      programs: PROGRAM_COUNT,
      nodeMs: round(nodeMs),
      doctorMs: round(doctorMs),
      ratio: round(ratio),
      target: TARGET_RATIO,
      pass: ratio <= TARGET_RATIO,
      registrationMs: round(registration),
      registrationBudgetMs: REGISTRATION_BUDGET_MS,
      registrationPass: registration < REGISTRATION_BUDGET_MS,
      serveInitializeMs: round(serveInitializeMs),
    };
    process.stdout.write(JSON.stringify(report) + "\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
