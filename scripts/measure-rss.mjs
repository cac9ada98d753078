// Measures the RSS of a fresh server (dist/cli/main.js) over its first calls (#14, §17):
// `node scripts/measure-rss.mjs [calls]` prints RSS after each checkpoint, one JSON line each.
// Run after `npm run build`; the calls are `system_exec` of `true`, one at a time.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const calls = Number(process.argv[2] ?? 3000);
const checkpoints = new Set([0, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000]);

const dir = mkdtempSync(path.join(os.tmpdir(), "scm-rss-"));
const manifest = path.join(dir, "manifest.json");
writeFileSync(
  manifest,
  JSON.stringify({
    version: 2,
    programs: { true: { candidates: ["/bin/true", "/usr/bin/true"] } },
  }),
);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    path.join(root, "dist/cli/main.js"),
    "serve",
    "--manifest",
    manifest,
    "--root",
    dir,
    "--artifact-dir",
    path.join(dir, "artifacts"),
  ],
  env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_STATE_HOME: path.join(dir, "state") },
  stderr: "ignore",
});
const client = new Client({ name: "rss", version: "0" });
await client.connect(transport);
const rssKiB = () => {
  const status = readFileSync(`/proc/${transport.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
};
for (let i = 0; i <= calls; i += 1) {
  if (checkpoints.has(i)) {
    console.log(JSON.stringify({ calls: i, rssMiB: +(rssKiB() / 1024).toFixed(1) }));
  }
  if (i < calls) {
    const result = await client.callTool({ name: "system_exec", arguments: { program: "true" } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  }
}
await client.close();
rmSync(dir, { recursive: true, force: true });
