// Bench row of SPEC §16/§20.1 item 1: the git-directory scan of a writable Root with 50
// directories (a repository at the top, one nested repository, node_modules skipped), run the way
// every confined workspace-write execution runs it. Target: p50 ≤ 1 ms.
// Prints one JSON line on stdout (bench/run.mjs shows it).
//
// Environment: BENCH_CLI_ENTRY (a dist/cli/main.js: its dist/ is used), BENCH_RUNS (scans;
// default 2000, BENCH_QUICK=1: 200), BENCH_TMP (where to put the temp dir).

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { now, p50 } from "./lib.mjs";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI_ENTRY = process.env.BENCH_CLI_ENTRY ?? path.join(REPO_ROOT, "dist/cli/main.js");
const DIST = path.resolve(path.dirname(CLI_ENTRY), "..");
const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 200 : 2000));
const WARMUP = 50;
/** SPEC §16: the scan of a Root with 50 directories, p50. */
const TARGET_MS = 1;
/** Directories in the Root (the Root itself included). */
const DIRECTORIES = 50;

const load = (file) => import(pathToFileURL(path.join(DIST, "confinement", file)).href);
const { scanGitDirectories } = await load("git-scan.js");
const { ProtectionSet } = await load("protection.js");

const tmp = realpathSync(mkdtempSync(path.join(process.env.BENCH_TMP ?? os.tmpdir(), "git-scan-")));
const root = path.join(tmp, "root");
try {
  // A repository at the top and one nested (each with the git directories a `git init` makes),
  // spread over source directories two levels deep; node_modules holds more that must be skipped.
  const made = [root];
  const gitDirs = [path.join(root, ".git"), path.join(root, "vendor/lib/.git")];
  for (const git of gitDirs) {
    for (const sub of ["hooks", "info", "objects", "refs/heads"]) {
      mkdirSync(path.join(git, sub), { recursive: true });
    }
    writeFileSync(path.join(git, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(path.join(git, "config"), "[core]\n\tbare = false\n");
  }
  made.push(path.join(root, "vendor"), path.join(root, "vendor/lib"));
  for (let i = 0; made.length < DIRECTORIES; i++) {
    const dir = path.join(root, `src${i % 8}`, `part${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "index.ts"), "export {};\n");
    made.push(dir);
    if (i < 8) made.push(path.dirname(dir));
  }
  for (let i = 0; i < 200; i++)
    mkdirSync(path.join(root, "node_modules", `pkg${i}`), { recursive: true });
  const input = { roots: [root], home: tmp, globalConfigs: [path.join(tmp, ".gitconfig")] };
  const once = () => {
    const start = now();
    const protection = new ProtectionSet([root]);
    scanGitDirectories(protection, input);
    const result = protection.result();
    const elapsed = now() - start;
    if (result.readOnly.length === 0) throw new Error("the scan found no git directory");
    return elapsed;
  };
  for (let i = 0; i < WARMUP; i++) once();
  const samples = [];
  for (let i = 0; i < RUNS; i++) samples.push(once());
  const scanMs = p50(samples);
  console.log(
    JSON.stringify({
      name: `git-directory scan of a Root with ${DIRECTORIES} directories (§20.1 item 1), p50`,
      server: `${scanMs.toFixed(3)} ms a scan`,
      reference: `target ≤ ${TARGET_MS} ms`,
      value: scanMs,
      scanMs,
      directories: DIRECTORIES,
      runs: RUNS,
      pass: scanMs <= TARGET_MS,
    }),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
