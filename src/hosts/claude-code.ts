// Claude Code: a `claude mcp add` command line (user scope), the permission rule Claude Code
// needs before it runs any of our tools, and the equivalent project `.mcp.json`, all after the
// command as comment lines, so the whole snippet is still a runnable shell script.

import { SERVER_NAME, launchEnv } from "./launch.js";
import type { ServerLaunch } from "./launch.js";
import { renderJson, serverEntry } from "./json.js";
import { posixShellWord, powershellWord } from "./quote.js";

/**
 * The permission rule that lets Claude Code call every tool of the server: without one it
 * refuses each call ("you haven't granted it yet"), read-only tools included (HOSTS.md).
 */
export const CLAUDE_CODE_PERMISSION_RULE = `mcp__${SERVER_NAME}`;

/** The settings.json fragment holding the rule, on one line. */
export function claudeCodePermissionSettings(): string {
  return JSON.stringify({ permissions: { allow: [CLAUDE_CODE_PERMISSION_RULE] } });
}

/** Where the Claude Code snippet goes. */
export function claudeCodeTarget(platform: NodeJS.Platform): string {
  const shell = platform === "win32" ? "PowerShell" : "a POSIX shell";
  return `run the command in ${shell} (writes ~/.claude.json), or put the JSON in <project>/.mcp.json`;
}

/** The project-scope `.mcp.json` form of the same server. */
export function renderClaudeCodeMcpJson(launch: ServerLaunch): string {
  return renderJson("mcpServers", serverEntry(launch, { before: { type: "stdio" } }));
}

/**
 * The command line, quoted for a POSIX shell, or for PowerShell on Windows (where `--` is quoted
 * so PowerShell passes it on instead of taking it as its own end-of-parameters marker).
 */
export function renderClaudeCode(launch: ServerLaunch, platform: NodeJS.Platform): string {
  const word = platform === "win32" ? powershellWord : posixShellWord;
  const words = ["claude", "mcp", "add", "--scope", "user", SERVER_NAME];
  // After the name: `-e` takes several values and would otherwise swallow the name.
  for (const [name, value] of launchEnv(launch)) words.push("-e", word(`${name}=${value}`));
  words.push(platform === "win32" ? "'--'" : "--");
  words.push(word(launch.command), ...launch.args.map(word));
  const json = renderClaudeCodeMcpJson(launch).trimEnd().split("\n");
  return (
    [
      "# system-command-mcp for Claude Code: register it for your user (all projects):",
      words.join(" "),
      "# Claude Code refuses every call of an MCP tool until a permission rule allows it. Allow",
      `# this server's tools for one session: claude --allowedTools ${CLAUDE_CODE_PERMISSION_RULE}`,
      "# or for good, in ~/.claude/settings.json (or <project>/.claude/settings.json):",
      `# ${claudeCodePermissionSettings()}`,
      "# Or, for one project only, put this in <project>/.mcp.json:",
      ...json.map((line) => `# ${line}`),
    ].join("\n") + "\n"
  );
}
