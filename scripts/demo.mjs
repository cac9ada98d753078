// `npm run demo`: starts the real server over stdio with the SDK client, lists its tools, runs
// `node --version`, a program that exits nonzero, and one whose output is truncated, then pages
// the complete output back — printing what an agent receives.

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = mkdtempSync(path.join(os.tmpdir(), "scm-demo-"));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    path.join(repo, "dist/cli/main.js"),
    "serve",
    "--root",
    root,
    "--artifact-dir",
    path.join(root, ".artifacts"),
  ],
  stderr: "inherit",
});
const client = new Client({ name: "demo", version: "1.0.0" });

function show(title, value) {
  console.log(`\n=== ${title}`);
  console.log(typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  show(
    "tools/list",
    tools.map((tool) => `${tool.name}: ${tool.description.slice(0, 90)}…`).join("\n"),
  );

  const environment = await client.callTool({ name: "system_environment", arguments: {} });
  const { mode, programs, roots } = environment.structuredContent;
  show("system_environment (excerpt)", { mode, roots, programs: Object.keys(programs) });

  const version = await client.callTool({
    name: "system_exec",
    arguments: { program: "node", args: ["--version"] },
  });
  show("system_exec node --version", version.structuredContent);

  const failing = await client.callTool({
    name: "system_exec",
    arguments: {
      program: "node",
      args: ["-e", "console.error('no such file: config.json'); process.exit(2)"],
    },
  });
  show("system_exec with a nonzero exit (a result, not an error)", failing.structuredContent);

  const big = await client.callTool({
    name: "system_exec",
    arguments: {
      program: "node",
      args: ["-e", "for (let i = 1; i <= 5000; i++) console.log('line ' + i)"],
    },
  });
  const { stdout, artifact } = big.structuredContent;
  show("system_exec with 5000 lines (truncated excerpt)", {
    truncated: stdout.truncated,
    totalBytes: stdout.totalBytes,
    omittedBytes: stdout.omittedBytes,
    artifact,
    textStart: stdout.text.slice(0, 60),
  });
  if (artifact.status === "published") {
    const page = await client.callTool({
      name: "system_output",
      arguments: { id: artifact.id, stream: "stdout", offset: 40000, limit: 60 },
    });
    show("system_output page at byte 40000", page.structuredContent);
  }

  const refused = await client.callTool({
    name: "system_exec",
    arguments: { program: "bash", args: ["-c", "ls"] },
  });
  show("a tool error (what the model sees)", refused.content[0].text);
} finally {
  await client.close();
  rmSync(root, { recursive: true, force: true });
}
