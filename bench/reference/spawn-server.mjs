// The per-call floor of §16: the minimal low-level-SDK stdio server (minimal-server.mjs) with one
// tool that spawns a program the way the raw reference does (stdin ignored, stdout and stderr
// piped and drained, awaited to 'close') and returns its exit code. No checks, no projection, no
// artifacts, no process-group cleanup: what any MCP server that spawns per call costs.

import { spawn } from "node:child_process";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server(
  { name: "spawn-reference", version: "0.0.0" },
  { capabilities: { tools: {} } },
);

const TOOL = {
  name: "run",
  description: "Spawns `file` with no arguments and returns its exit code.",
  inputSchema: {
    type: "object",
    properties: { file: { type: "string" } },
    required: ["file"],
    additionalProperties: false,
  },
};

function run(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", () => {});
    child.stderr.on("data", () => {});
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
}

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [TOOL] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const code = await run(String(request.params.arguments?.file ?? ""));
  return { content: [{ type: "text", text: `exit ${code}` }] };
});

await server.connect(new StdioServerTransport());
// The SDK's stdio transport does not notice stdin EOF by itself.
process.stdin.on("end", () => process.exit(0));
