// Bench row of SPEC §16 (growth): per-call p50 of /bin/true on a server whose store holds 10,000
// published artifacts and 64 kept handles, against the same call on a server with an empty store
// (≤ 1.1×). Both servers run at once and the calls alternate between them, so load on a busy
// machine falls on both alike. A second, informational row does the same for a call that
// publishes an artifact (artifactPolicy "always"), which is the path that lists the store.
//
// Seeding: the 10,000 artifacts are written before the server starts, in this process, through
// the built store's own API (openArtifactStore → createStaging → write → publish): the same lock,
// quota pass, metadata and rename as a server's publication, without 10,000 process spawns. They
// are real artifacts: the seeded server pages one of them before measuring. The 64 handles are
// made the only way a server makes them: 64 `background: true` calls, each waited until completed
// (HANDLE_RETENTION_COUNT keeps exactly 64).
//
// Prints one JSON line on stdout (bench/run.mjs shows it); progress on stderr.
// Environment: BENCH_CLI_ENTRY (the dist/cli/main.js to run; default the repo's), BENCH_RUNS
// (measured calls per server; default 300, BENCH_QUICK=1: 30), BENCH_GROWTH_ARTIFACTS (default
// 10000, quick 500), BENCH_TMP (where to put the temp dirs).

import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { benchWorkspace, callTool, firstExisting, now, p50 } from "./lib.mjs";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI_ENTRY = process.env.BENCH_CLI_ENTRY ?? path.join(REPO_ROOT, "dist/cli/main.js");
const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 30 : 300));
/** SPEC §16: 10,000 artifacts and 64 kept handles; the per-call p50 ≤ 1.1 × an empty store's. */
const ARTIFACTS = Number(process.env.BENCH_GROWTH_ARTIFACTS ?? (QUICK ? 500 : 10_000));
const HANDLES = 64;
const TARGET_RATIO = 1.1;
const WARM_UP_CALLS = 30;
/** The store limits a server gets by default (SPEC §8), so the seeded store is one it accepts. */
const STORE = { retentionMs: 86_400_000, quotaBytes: 1024 ** 3, maxStreamBytes: 100 * 1024 ** 2 };

const TRUE = firstExisting("/bin/true", "/usr/bin/true");
const ECHO = firstExisting("/bin/echo", "/usr/bin/echo");
const PROGRAMS = {
  true: { candidates: [TRUE], policy: { allowBackground: true } },
  echo: { candidates: [ECHO], policy: { artifactPolicy: "always" } },
};

/** Publishes `count` small artifacts into `dir` through the built store; returns the first id. */
async function seedArtifacts(dir, count) {
  const storeModule = path.resolve(path.dirname(CLI_ENTRY), "../artifacts/store.js");
  const { openArtifactStore } = await import(pathToFileURL(storeModule).href);
  const store = await openArtifactStore({ dir, ...STORE });
  let first;
  try {
    for (let i = 0; i < count; i++) {
      const staging = await store.createStaging();
      const bytes = Buffer.from(`seeded artifact ${i}\n`);
      if (!staging.write("stdout", bytes)) await staging.drained("stdout");
      const outcome = await staging.publish({ stdout: bytes.length, stderr: 0 });
      if (outcome.status !== "published") {
        throw new Error(
          `seeding artifact ${i}: expected published, got ${JSON.stringify(outcome)}`,
        );
      }
      first ??= staging.id;
    }
  } finally {
    await store.close();
  }
  return first;
}

/** Makes HANDLES kept handles: background calls, each waited until it completed. */
async function seedHandles(server) {
  for (let i = 0; i < HANDLES; i++) {
    const started = await callTool(server, "system_exec", { program: "true", background: true });
    let result = started;
    while (result.status !== "completed") {
      result = await callTool(server, "system_wait", {
        executionId: started.executionId,
        waitMs: 10_000,
      });
    }
  }
}

/** Alternates `call` between the two servers; per-server p50 (ms). */
async function alternate(empty, grown, args, runs) {
  const times = { empty: [], grown: [] };
  const once = async (server, into) => {
    const start = now();
    const result = await callTool(server, "system_exec", args);
    into.push(now() - start);
    if (result.exitCode !== 0) throw new Error(`${args.program} exited ${result.exitCode}`);
    return result;
  };
  for (let i = 0; i < runs; i++) {
    // Alternate which one goes first, so neither always follows the other.
    if (i % 2 === 0) {
      await once(empty, times.empty);
      await once(grown, times.grown);
    } else {
      await once(grown, times.grown);
      await once(empty, times.empty);
    }
  }
  return { empty: p50(times.empty), grown: p50(times.grown) };
}

const emptyWorkspace = benchWorkspace("growth-empty-", PROGRAMS);
const grownWorkspace = benchWorkspace("growth-grown-", PROGRAMS);
const servers = [];
try {
  const seedStart = now();
  const firstId = await seedArtifacts(grownWorkspace.artifactDir, ARTIFACTS);
  const seedSeconds = (now() - seedStart) / 1000;
  process.stderr.write(
    `growth bench: ${ARTIFACTS} artifacts seeded in ${seedSeconds.toFixed(1)} s\n`,
  );

  const empty = emptyWorkspace.serve(CLI_ENTRY);
  servers.push(empty);
  const grown = grownWorkspace.serve(CLI_ENTRY);
  servers.push(grown);
  await Promise.all([empty.initialize(), grown.initialize()]);
  await seedHandles(grown);
  const page = await callTool(grown, "system_output", { id: firstId, stream: "stdout", offset: 0 });
  if (page.text !== "seeded artifact 0\n") {
    throw new Error(`the seeded store is not the server's: ${JSON.stringify(page)}`);
  }

  const trueArgs = { program: "true" };
  const echoArgs = { program: "echo", args: ["published"] };
  await alternate(empty, grown, trueArgs, WARM_UP_CALLS);
  const call = await alternate(empty, grown, trueArgs, RUNS);
  await alternate(empty, grown, echoArgs, WARM_UP_CALLS);
  const publish = await alternate(empty, grown, echoArgs, RUNS);
  const ratio = call.grown / call.empty;
  console.log(
    JSON.stringify({
      name: `growth: /bin/true p50 with ${ARTIFACTS} artifacts and ${HANDLES} kept handles vs an empty store`,
      server: `${call.grown.toFixed(2)} ms`,
      reference: `${call.empty.toFixed(2)} ms (empty store, same run, alternating)`,
      ratio,
      grownMs: call.grown,
      emptyMs: call.empty,
      artifacts: ARTIFACTS,
      handles: HANDLES,
      seedSeconds,
      runs: RUNS,
      pass: ratio <= TARGET_RATIO,
      publish: {
        name: `… a publishing call (artifactPolicy always) with ${ARTIFACTS} artifacts vs an empty store`,
        server: `${publish.grown.toFixed(2)} ms`,
        reference: `${publish.empty.toFixed(2)} ms (empty store, same run, alternating)`,
        ratio: publish.grown / publish.empty,
        grownMs: publish.grown,
        emptyMs: publish.empty,
      },
    }),
  );
} finally {
  for (const server of servers) await server.close();
  rmSync(emptyWorkspace.tmp, { recursive: true, force: true });
  rmSync(grownWorkspace.tmp, { recursive: true, force: true });
}
