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

/**
 * What Gemini CLI needs before it offers our tools at all (HOSTS.md, verified with 0.61.0), for
 * a note beside the JSON (which cannot carry comments).
 */
export function geminiNotes(): string[] {
  return [
    'Gemini CLI offers a server\'s tools in headless runs (gemini -p) only when its entry has "trust": true ' +
      "(which also skips Gemini's confirmation of each call); interactive runs ask before each call instead",
    "Gemini CLI disables every MCP server in a folder it does not trust: trust the project folder " +
      "when it asks (or with /permissions), or for headless runs pass --skip-trust or set " +
      "GEMINI_CLI_TRUST_WORKSPACE=true",
  ];
}

/** The JSON snippet; the timeout matches the other hosts (Gemini's own default is 600 s). */
export function renderGemini(launch: ServerLaunch): string {
  return renderJson(
    "mcpServers",
    serverEntry(launch, { after: { timeout: HOST_TOOL_TIMEOUT_MS } }),
  );
}
