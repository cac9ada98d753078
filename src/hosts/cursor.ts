// Cursor: `mcpServers` in ~/.cursor/mcp.json (all projects) or <project>/.cursor/mcp.json.
// Cursor limits server name + tool name to 60 characters: "system-command" + the longest
// tool name ("system_environment") stays well inside.

import type { ServerLaunch } from "./launch.js";
import { renderJson, serverEntry } from "./json.js";

/** Where the Cursor snippet goes. */
export function cursorTarget(platform: NodeJS.Platform): string {
  const home = platform === "win32" ? "%USERPROFILE%\\.cursor\\mcp.json" : "~/.cursor/mcp.json";
  return `${home} (all projects) or <project>/.cursor/mcp.json`;
}

/** The JSON snippet. */
export function renderCursor(launch: ServerLaunch): string {
  return renderJson("mcpServers", serverEntry(launch));
}
