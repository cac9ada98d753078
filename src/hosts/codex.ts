// Codex CLI: a `[mcp_servers.system-command]` table for config.toml (HOSTS.md, SPEC §14).

import { HOST_STARTUP_TIMEOUT_MS, HOST_TOOL_TIMEOUT_MS, SERVER_NAME, launchEnv } from "./launch.js";
import type { ServerLaunch } from "./launch.js";
import { tomlKey, tomlString } from "./quote.js";

/**
 * Variables forwarded from Codex's own environment. Codex passes only HOME, LANG, PATH, SHELL,
 * TERM and CA-bundle variables to a server otherwise, and the server hands its environment on.
 */
export const CODEX_ENV_VARS: readonly string[] = [
  "LANG",
  "LC_ALL",
  "SSH_AUTH_SOCK",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "TMPDIR",
];

/** The tools that are not read-only: Codex asks before each of their calls by default. */
const APPROVAL_TOOLS = ["system_exec", "system_cancel"] as const;

/** Where the Codex snippet goes. */
export function codexTarget(platform: NodeJS.Platform): string {
  if (platform === "win32") {
    return "%USERPROFILE%\\.codex\\config.toml (or %CODEX_HOME%\\config.toml)";
  }
  return "~/.codex/config.toml (or $CODEX_HOME/config.toml)";
}

/** The TOML snippet: one server table, comments saying why each setting is there. */
export function renderCodex(launch: ServerLaunch, platform: NodeJS.Platform): string {
  const table = `mcp_servers.${SERVER_NAME}`;
  const args = launch.args.map(tomlString).join(", ");
  const envVars = CODEX_ENV_VARS.map(tomlString).join(", ");
  const lines = [
    `# system-command-mcp for Codex: add to ${codexTarget(platform)}.`,
    `[${table}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${args}]`,
  ];
  const env = launchEnv(launch);
  if (env.length > 0) {
    const pairs = env.map(([name, value]) => `${tomlKey(name)} = ${tomlString(value)}`);
    lines.push(`env = { ${pairs.join(", ")} }`);
  }
  lines.push(
    "# Without required = true Codex waits only about 1 s for the server before the first turn.",
    "required = true",
    `startup_timeout_sec = ${HOST_STARTUP_TIMEOUT_MS / 1000}`,
    `tool_timeout_sec = ${HOST_TOOL_TIMEOUT_MS / 1000}`,
    "# Codex passes the server only HOME, LANG, PATH, SHELL and TERM; programs need these too.",
    `env_vars = [${envVars}]`,
    "# Codex asks before every call of a tool that is not read-only (system_exec, system_cancel),",
    '# and with approval_policy = "never" such calls fail with "requires approval". To let them',
    "# run without asking, uncomment this line, or the per-tool tables at the end instead:",
    '# default_tools_approval_mode = "approve"',
  );
  for (const tool of APPROVAL_TOOLS) {
    lines.push(`# [${table}.tools.${tool}]`, '# approval_mode = "approve"');
  }
  return lines.join("\n") + "\n";
}
