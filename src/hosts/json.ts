// Shared shape of the JSON snippets (Claude Desktop, Claude Code .mcp.json, Cursor, VS Code,
// Gemini CLI): one server entry under the host's top-level key, printed alone so it parses.

import { SERVER_NAME, launchEnv } from "./launch.js";
import type { ServerLaunch } from "./launch.js";

/** One server entry as these hosts spell it; `extra` adds host-specific keys. */
export function serverEntry(
  launch: ServerLaunch,
  extra: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const entry: Record<string, unknown> = { ...extra.before };
  entry.command = launch.command;
  entry.args = [...launch.args];
  const env = launchEnv(launch);
  if (env.length > 0) entry.env = Object.fromEntries(env);
  return { ...entry, ...extra.after };
}

/** `{ "<topKey>": { "system-command": entry } }`, two-space indented, with a final newline. */
export function renderJson(topKey: string, entry: Record<string, unknown>): string {
  return JSON.stringify({ [topKey]: { [SERVER_NAME]: entry } }, null, 2) + "\n";
}
