// OpenCode: `mcp` in opencode.json, a "local" server whose `command` is one array (the program
// and its arguments), `environment` for variables, and a per-request `timeout` in milliseconds.

import { HOST_TOOL_TIMEOUT_MS, SERVER_NAME, launchEnv } from "./launch.js";
import type { ServerLaunch } from "./launch.js";

/** Where the OpenCode snippet goes. */
export function opencodeTarget(platform: NodeJS.Platform): string {
  const home =
    platform === "win32"
      ? "%USERPROFILE%\\.config\\opencode\\opencode.json"
      : "~/.config/opencode/opencode.json";
  return `${home} (or <project>/opencode.json), merged into its "mcp" object`;
}

/** The JSON snippet; the timeout matches the other hosts. */
export function renderOpencode(launch: ServerLaunch): string {
  const entry: Record<string, unknown> = {
    type: "local",
    command: [launch.command, ...launch.args],
  };
  const env = launchEnv(launch);
  if (env.length > 0) entry.environment = Object.fromEntries(env);
  entry.enabled = true;
  entry.timeout = HOST_TOOL_TIMEOUT_MS;
  return JSON.stringify({ mcp: { [SERVER_NAME]: entry } }, null, 2) + "\n";
}
