// The tools/list row (issue 25 part 1, §3 schema subset): what a host pays to load our tools. The
// official SDK client compiles every outputSchema with Ajv inside listTools(), so the row times a
// fresh client's first listTools() against the same call on the minimal SDK server
// (bench/reference/minimal-server.mjs, one tool, no output schema), and reports the bytes of the
// tools/list result a host keeps (and may show a model).
//
// Standalone: `node bench/list-tools.mjs` (after `npm run build`) prints one JSON line.
// From bench/run.mjs: benchListTools({ serverArgs, referenceArgs, env, cwd, runs }).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { now, p50 } from "./lib.mjs";

/** Target: our listTools() ≤ 3 × the minimal server's (issue 25). */
export const LIST_TOOLS_TARGET = 3;

/** One fresh client: connect, then time its first listTools() (Ajv compiles in there). */
async function firstListTools(command, args, env, cwd) {
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: "ignore" });
  const client = new Client({ name: "bench-list-tools", version: "0.0.0" });
  await client.connect(transport);
  try {
    const start = now();
    const { tools } = await client.listTools();
    const ms = now() - start;
    return { ms, bytes: Buffer.byteLength(JSON.stringify({ tools })), tools: tools.length };
  } finally {
    await client.close();
  }
}

/** p50 of `runs` fresh clients against each server, order alternated; bytes of our tools/list. */
export async function benchListTools({ serverArgs, referenceArgs, env, cwd, runs = 15 }) {
  const node = process.execPath;
  await firstListTools(node, serverArgs, env, cwd); // warm the file cache
  await firstListTools(node, referenceArgs, env, cwd);
  const server = [];
  const reference = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? ["server", "reference"] : ["reference", "server"];
    for (const which of order) {
      const sample = await firstListTools(
        node,
        which === "server" ? serverArgs : referenceArgs,
        env,
        cwd,
      );
      if (which === "server") {
        server.push(sample.ms);
        bytes = sample.bytes;
      } else {
        reference.push(sample.ms);
      }
    }
  }
  const ratio = p50(server) / p50(reference);
  return {
    serverMs: p50(server),
    referenceMs: p50(reference),
    ratio,
    bytes,
    pass: ratio <= LIST_TOOLS_TARGET,
    samples: { server, reference },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = await import("node:path");
  const os = await import("node:os");
  const { mkdtempSync, rmSync, writeFileSync, mkdirSync } = await import("node:fs");
  const { fileURLToPath } = await import("node:url");
  const here = path.dirname(fileURLToPath(import.meta.url));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "scm-bench-list-"));
  try {
    const root = path.join(tmp, "root");
    mkdirSync(root);
    const manifest = path.join(tmp, "manifest.json");
    const programs = {
      true: { candidates: ["/bin/true"] },
      node: { candidates: [process.execPath] },
    };
    writeFileSync(manifest, JSON.stringify({ version: 2, programs }));
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: tmp,
      XDG_STATE_HOME: path.join(tmp, "state"),
      XDG_CACHE_HOME: path.join(tmp, "cache"),
    };
    const entry = path.join(here, "../dist/cli/main.js");
    const args = [
      entry,
      "serve",
      "--root",
      root,
      "--manifest",
      manifest,
      "--artifact-dir",
      path.join(tmp, "a"),
    ];
    const report = await benchListTools({
      serverArgs: args,
      referenceArgs: [path.join(here, "reference/minimal-server.mjs")],
      env,
      cwd: root,
      runs: Number(process.env.BENCH_RUNS ?? 15),
    });
    const { samples: _samples, ...summary } = report;
    console.log(JSON.stringify(summary));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
