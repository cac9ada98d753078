// Claude Desktop: `mcpServers` in claude_desktop_config.json.

import type { ServerLaunch } from "./launch.js";
import { renderJson, serverEntry } from "./json.js";

/** Where the Claude Desktop snippet goes. */
export function claudeDesktopTarget(platform: NodeJS.Platform): string {
  if (platform === "darwin") {
    return "~/Library/Application Support/Claude/claude_desktop_config.json";
  }
  if (platform === "win32") return "%APPDATA%\\Claude\\claude_desktop_config.json";
  return "claude_desktop_config.json in Claude Desktop's configuration directory";
}

/** The JSON snippet; Claude Desktop has no per-call timeout setting (about 60 s). */
export function renderClaudeDesktop(launch: ServerLaunch): string {
  return renderJson("mcpServers", serverEntry(launch));
}
