// Build step: bundles the compiled CLI (dist/cli/main.js) with its own modules into one entry
// plus lazily loaded chunks, written over dist/cli/main.js. Node then loads a handful of files
// instead of ~75 at every server start (SPEC §16 cold start). Dependencies stay external.

import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(repo, "dist/cli/main.js");

// Chunks of an earlier build, and the map of the unbundled entry, would only mislead.
rmSync(path.join(repo, "dist/cli/chunks"), { recursive: true, force: true });
rmSync(`${entry}.map`, { force: true });

await build({
  entryPoints: [entry],
  outdir: path.join(repo, "dist/cli"),
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: false,
  logLevel: "warning",
});
