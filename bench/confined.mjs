// Bench row of SPEC §16/§20: the cost of confinement. One server registers /bin/true twice, once
// unconfined and once under a read-only bubblewrap sandbox; calls alternate between the two so
// both see the same machine load, and the p50 of each call's wall time is compared.
// Prints one JSON line on stdout (bench/run.mjs shows it); progress on stderr.
//
// Environment: BENCH_CLI_ENTRY (the dist/cli/main.js to run; default the repo's), BENCH_RUNS
// (calls per variant; default 200, BENCH_QUICK=1: 30), BENCH_TMP (where to put the temp dir).

import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { benchWorkspace, callTool, firstExisting, now, p50, rawRun } from "./lib.mjs";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI_ENTRY = process.env.BENCH_CLI_ENTRY ?? path.join(REPO_ROOT, "dist/cli/main.js");
const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 30 : 200));
const WARMUP = 10;
/**
 * SPEC §16 Revision 3: what confinement adds to a call ≤ what a raw bwrap with the same argv (the
 * same mounts and the §20.1 pre-exec step) adds to a raw /bin/true, + 1 ms, at p50.
 */
const TARGET_OVER_BWRAP_MS = 1;

const TRUE = firstExisting("/bin/true", "/usr/bin/true");
/** The server's start script (src/confinement/start-check.ts), read from the build. */
const { START_SCRIPT, CWD_FD, START_STATUS_FD } = await import(
  pathToFileURL(path.join(REPO_ROOT, "dist/confinement/start-check.js")).href
);

/** Raw bwrap with the pinned cwd at fd 9, an info pipe at 3 and the status pipe at 4. */
function rawBwrap(args, cwd) {
  const dirFd = openSync(cwd, "r");
  const stdio = ["ignore", "pipe", "pipe"];
  for (let fd = 3; fd <= CWD_FD; fd++) {
    stdio.push(fd === 3 || fd === START_STATUS_FD ? "pipe" : fd === CWD_FD ? dirFd : "ignore");
  }
  return new Promise((resolve, reject) => {
    const child = spawn("bwrap", args, { stdio });
    closeSync(dirFd);
    for (const fd of [1, 2, 3, START_STATUS_FD]) child.stdio[fd].on("data", () => {});
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
}
const probe = spawnSync("bwrap", [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--",
  TRUE,
]);
if (probe.error || probe.status !== 0) {
  console.log(JSON.stringify({ name: "Confined /bin/true: bwrap does not run here", value: "?" }));
  process.exit(0);
}

const workspace = benchWorkspace("confined-", {
  true: { candidates: [TRUE] },
  confined: { candidates: [TRUE], sandbox: { filesystem: "read-only" } },
});
const { tmp: TMP, root: ROOT } = workspace;
const server = workspace.serve(CLI_ENTRY);
try {
  await server.initialize();
  const samples = { true: [], confined: [] };
  const once = async (program) => {
    const start = now();
    const result = await callTool(server, "system_exec", { program });
    const elapsed = now() - start;
    if (result.exitCode !== 0) {
      throw new Error(`${program} exited ${result.exitCode}: ${result.stderr.text.slice(0, 300)}`);
    }
    return elapsed;
  };
  for (let i = 0; i < WARMUP; i++) {
    await once("true");
    await once("confined");
  }
  for (let i = 0; i < RUNS; i++) {
    // alternate the order so neither variant always follows the other
    const order = i % 2 === 0 ? ["true", "confined"] : ["confined", "true"];
    for (const program of order) samples[program].push(await once(program));
  }
  // The floor: bwrap itself, spawned straight from this process with the same mounts and the
  // same §20.1 item 7 pre-exec step (the cwd opened and passed as fd 9, the constant start script
  // with its status pipe), against a raw /bin/true — what the kernel's namespaces and the script
  // cost before the server adds anything.
  const privateTmp = mkdtempSync(path.join(TMP, "raw-tmp-"));
  // The same mounts as the server's (SPEC §20.1): no capabilities, read-only kernel knobs.
  const knobs = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"];
  const rawArgs = [
    "--die-with-parent", "--unshare-pid", "--unshare-user", "--cap-drop", "ALL",
    "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
    ...knobs.flatMap((knob) => ["--ro-bind-try", knob, knob]),
    "--bind", privateTmp, "/tmp", "--ro-bind", ROOT, ROOT,
    "--info-fd", "3", "--chdir", ROOT, "--", "/bin/sh", "-c", START_SCRIPT, "sh", TRUE,
  ]; // prettier-ignore
  const raw = { bwrap: [], true: [] };
  for (let i = 0; i < RUNS; i++) {
    let start = now();
    await rawBwrap(rawArgs, ROOT);
    raw.bwrap.push(now() - start);
    start = now();
    await rawRun(TRUE, []);
    raw.true.push(now() - start);
  }
  const rawBwrapExtraMs = p50(raw.bwrap) - p50(raw.true);
  const unconfinedMs = p50(samples.true);
  const confinedMs = p50(samples.confined);
  const addedMs = confinedMs - unconfinedMs;
  console.log(
    JSON.stringify({
      name: "Confined /bin/true (bubblewrap, read-only): added over raw bwrap + start script, p50",
      server: `${confinedMs.toFixed(2)} ms confined, ${unconfinedMs.toFixed(2)} ms unconfined`,
      reference: `raw bwrap (same mounts, fd 9 + start script) adds ${rawBwrapExtraMs.toFixed(2)} ms`,
      overBwrapMs: addedMs - rawBwrapExtraMs,
      extraMs: addedMs,
      confinedMs,
      unconfinedMs,
      rawBwrapExtraMs,
      serverOverBwrapMs: addedMs - rawBwrapExtraMs,
      targetOverBwrapMs: TARGET_OVER_BWRAP_MS,
      runs: RUNS,
      pass: addedMs - rawBwrapExtraMs <= TARGET_OVER_BWRAP_MS,
    }),
  );
} finally {
  await server.close();
  rmSync(TMP, { recursive: true, force: true });
}
