// VS Code: `servers` in .vscode/mcp.json, each entry with an explicit `"type": "stdio"`.

import type { ServerLaunch } from "./launch.js";
import { renderJson, serverEntry } from "./json.js";

/** Where the VS Code snippet goes. */
export function vscodeTarget(): string {
  return "<workspace>/.vscode/mcp.json (or the user mcp.json: command 'MCP: Open User Configuration')";
}

/** The JSON snippet. */
export function renderVscode(launch: ServerLaunch): string {
  return renderJson("servers", serverEntry(launch, { before: { type: "stdio" } }));
}
