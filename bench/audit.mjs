// Bench rows of SPEC §16/§22.1: the sealed audit log. One row per run, chosen by argv[2]:
//   call     per-call p50 of /bin/true with a sealed audit log vs the same server without audit
//            (two servers, calls alternating so both see the same load); target ≤ +2 ms
//   startup  spawn → initialize → tools/list p50 with a 100,000-record log vs no audit log; ≤ 1.1×
//   verify   `audit verify --key` of a 100,000-record sealed log, MB/s; target ≥ 50 MB/s
// Prints one JSON line on stdout (bench/run.mjs shows it).
//
// Environment: BENCH_CLI_ENTRY, BENCH_TMP, BENCH_QUICK=1 (fewer calls and records).

import { spawnSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchWorkspace, callTool, firstExisting, hostEnv, now, p50, startRpc } from "./lib.mjs";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI_ENTRY = process.env.BENCH_CLI_ENTRY ?? path.join(REPO_ROOT, "dist/cli/main.js");
const QUICK = process.env.BENCH_QUICK === "1";
const CALLS = QUICK ? 30 : 300;
const STARTS = QUICK ? 3 : 15;
const RECORDS = 100_000;
const WARMUP = 10;
const TRUE = firstExisting("/bin/true", "/usr/bin/true");
const row = process.argv[2];

const workspace = benchWorkspace("audit-", { true: { candidates: [TRUE] } });
const { tmp: TMP } = workspace;
const cli = (args) =>
  spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: "utf8", env: hostEnv(TMP) });

/** A server of the workspace, with extra flags. */
const serve = (extra) =>
  startRpc(
    process.execPath,
    [
      CLI_ENTRY,
      "serve",
      "--root",
      workspace.root,
      "--manifest",
      workspace.manifest,
      "--artifact-dir",
      workspace.artifactDir,
      ...extra,
    ],
    { env: hostEnv(TMP), cwd: workspace.root },
  );

/** Writes a sealed log of `count` exec-like records the way the server does; returns K (hex). */
function sealedLog(file, count) {
  const verificationKey = randomBytes(32);
  const evolve = (k) => createHmac("sha256", k).update("evolve").digest();
  let key = evolve(verificationKey);
  let prev = null;
  const chain = randomBytes(16).toString("hex");
  const fd = openSync(file, "w", 0o600);
  let batch = [];
  for (let seq = 0; seq < count; seq++) {
    const event = seq === 0 ? "chain-start" : seq === count - 1 ? "chain-end" : "exec";
    const body = JSON.stringify({
      event, ts: new Date().toISOString(), chain, seq, prev,
      ...(event === "exec" && {
        executionId: randomBytes(16).toString("hex"), client: { name: "bench", version: "1" },
        program: "true", executable: TRUE, argsDigest: randomBytes(32).toString("hex"), cwd: workspace.root,
        sandbox: null, decision: "allow", exitCode: 0, signal: null, timedOut: false, cancelled: false,
        durationMs: 2, stdout: { bytes: 0, sha256: randomBytes(32).toString("hex") },
        stderr: { bytes: 0, sha256: randomBytes(32).toString("hex") }, artifact: null,
      }),
    }); // prettier-ignore
    const mac = createHmac("sha256", key).update(body).digest("hex");
    const line = `${body.slice(0, -1)},"seal":${JSON.stringify({ index: seq, mac })}}`;
    key = evolve(key);
    prev = createHash("sha256").update(line).digest("hex");
    batch.push(line);
    if (batch.length === 1000 || seq === count - 1) {
      writeSync(fd, batch.join("\n") + "\n");
      batch = [];
    }
  }
  closeSync(fd);
  writeFileSync(`${file}.seal`, JSON.stringify({ index: count, key: key.toString("hex") }) + "\n", {
    mode: 0o600,
  });
  return verificationKey.toString("hex");
}

async function benchCall() {
  const log = path.join(TMP, "call.jsonl");
  const sealRun = cli(["audit", "seal", log]);
  if (sealRun.status !== 0) throw new Error(`audit seal failed: ${sealRun.stderr}`);
  const plain = serve([]);
  const sealed = serve(["--audit-log", log]);
  try {
    await plain.initialize();
    await sealed.initialize();
    const samples = { plain: [], sealed: [] };
    const once = async (name, server) => {
      const start = now();
      const result = await callTool(server, "system_exec", { program: "true" });
      if (result.exitCode !== 0) throw new Error(`true exited ${result.exitCode}`);
      samples[name].push(now() - start);
    };
    for (let i = 0; i < WARMUP; i++) {
      await once("plain", plain);
      await once("sealed", sealed);
    }
    samples.plain = [];
    samples.sealed = [];
    for (let i = 0; i < CALLS; i++) {
      const order =
        i % 2 === 0
          ? [
              ["plain", plain],
              ["sealed", sealed],
            ]
          : [
              ["sealed", sealed],
              ["plain", plain],
            ];
      for (const [name, server] of order) await once(name, server);
    }
    const extraMs = p50(samples.sealed) - p50(samples.plain);
    return {
      name: "Per call, /bin/true, with a sealed audit log vs unaudited, p50",
      server: `${p50(samples.sealed).toFixed(2)} ms sealed`,
      reference: `${p50(samples.plain).toFixed(2)} ms unaudited (alternating)`,
      extraMs,
      calls: CALLS,
    };
  } finally {
    await plain.close();
    await sealed.close();
  }
}

/** spawn → initialize → tools/list, ms. */
async function startOnce(extra) {
  const start = now();
  const server = serve(extra);
  try {
    await server.initialize();
    const listed = await server.request("tools/list", {});
    if (listed.error) throw new Error(`tools/list failed: ${JSON.stringify(listed.error)}`);
    return now() - start;
  } finally {
    await server.close();
  }
}

async function benchStartup() {
  const log = path.join(TMP, "startup.jsonl");
  sealedLog(log, QUICK ? 10_000 : RECORDS);
  const samples = { none: [], big: [] };
  for (let i = 0; i < STARTS; i++) {
    samples.none.push(await startOnce([]));
    samples.big.push(await startOnce(["--audit-log", log]));
  }
  const ratio = p50(samples.big) / p50(samples.none);
  return {
    name: `Startup with a ${QUICK ? "10,000" : "100,000"}-record sealed audit log vs none, p50`,
    server: `${p50(samples.big).toFixed(1)} ms with the log`,
    reference: `${p50(samples.none).toFixed(1)} ms without audit`,
    ratio,
    starts: STARTS,
  };
}

function benchVerify() {
  const log = path.join(TMP, "verify.jsonl");
  const key = sealedLog(log, QUICK ? 10_000 : RECORDS);
  const bytes = statSync(log).size;
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const start = now();
    const run = cli(["audit", "verify", log, "--key", key]);
    runs.push(now() - start);
    if (run.status !== 0) throw new Error(`audit verify failed: ${run.stdout}${run.stderr}`);
  }
  const best = Math.min(...runs);
  const mbPerSecond = bytes / 1e6 / (best / 1000);
  return {
    name: `audit verify --key of a ${QUICK ? "10,000" : "100,000"}-record sealed log (${(bytes / 1e6).toFixed(0)} MB, process start included)`,
    server: `${best.toFixed(0)} ms`,
    reference: "",
    mbPerSecond,
  };
}

try {
  const rows = { call: benchCall, startup: benchStartup, verify: benchVerify };
  if (!rows[row])
    throw new Error(`expected a row name (${Object.keys(rows).join(", ")}), got ${row}`);
  console.log(JSON.stringify(await rows[row]()));
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
