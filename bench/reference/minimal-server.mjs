// The cold-start reference of §16: the smallest useful low-level-SDK stdio server, one tool.
// Started exactly like the real server (`node <script>`), driven by the same bench client.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server(
  { name: "minimal-reference", version: "0.0.0" },
  { capabilities: { tools: {} } },
);

const TOOL = {
  name: "echo",
  description: "Returns its text argument.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
};

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [TOOL] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: String(request.params.arguments?.text ?? "") }],
}));

await server.connect(new StdioServerTransport());
// The SDK's stdio transport does not notice stdin EOF by itself.
process.stdin.on("end", () => process.exit(0));
