// Gemini CLI: `mcpServers` in settings.json, with a per-call `timeout` in milliseconds.
// Gemini names tools `mcp_<server>_<tool>` and splits on `_`, hence the hyphenated server name.

import { HOST_TOOL_TIMEOUT_MS } from "./launch.js";
import type { ServerLaunch } from "./launch.js";
import { renderJson, serverEntry } from "./json.js";

/** Where the Gemini CLI snippet goes. */
export function geminiTarget(platform: NodeJS.Platform): string {
  const home =
    platform === "win32" ? "%USERPROFILE%\\.gemini\\settings.json" : "~/.gemini/settings.json";
  return `${home} (or <project>/.gemini/settings.json)`;
}

/** The JSON snippet; the timeout matches the other hosts (Gemini's own default is 600 s). */
export function renderGemini(launch: ServerLaunch): string {
  return renderJson(
    "mcpServers",
    serverEntry(launch, { after: { timeout: HOST_TOOL_TIMEOUT_MS } }),
  );
}
