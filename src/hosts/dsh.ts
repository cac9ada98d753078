// DSH (DeepSeek Harness): a `@deepseek-ai/dsh-mcp-client` plugin row for cordis.patch.yml.

import { HOST_TOOL_TIMEOUT_MS, SERVER_NAME, launchEnv } from "./launch.js";
import type { ServerLaunch } from "./launch.js";
import { yamlString } from "./quote.js";

/** Reconnect after a lost connection: 500 ms doubling to 30 s, at most 10 tries per outage. */
export const DSH_RECONNECT = {
  enabled: true,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 10,
} as const;

/** Where the DSH snippet goes. */
export function dshTarget(platform: NodeJS.Platform): string {
  const home = platform === "win32" ? "%USERPROFILE%\\.dsh" : "~/.dsh";
  return `$DSH_HOME/cordis.patch.yml (DSH_HOME defaults to ${home})`;
}

/**
 * The YAML snippet: one `insert` patch entry holding the plugin row. cordis.patch.yml is a list
 * of patch entries, so the snippet is a whole file on its own and can be appended to one.
 */
export function renderDsh(launch: ServerLaunch, platform: NodeJS.Platform): string {
  const lines = [
    `# system-command-mcp for DSH: append to ${dshTarget(platform)}.`,
    "# Model-facing tool names are mcp__system-command__<tool>.",
    "- insert:",
    `    - id: mcp-${SERVER_NAME}`,
    "      name: '@deepseek-ai/dsh-mcp-client'",
    "      config:",
    `        serverName: ${SERVER_NAME}`,
    "        transport: stdio",
    `        command: ${yamlString(launch.command)}`,
  ];
  if (launch.args.length === 0) lines.push("        args: []");
  else lines.push("        args:", ...launch.args.map((arg) => `          - ${yamlString(arg)}`));
  const env = launchEnv(launch);
  if (env.length > 0) {
    lines.push("        env:");
    for (const [name, value] of env)
      lines.push(`          ${yamlString(name)}: ${yamlString(value)}`);
  }
  lines.push(
    "        # DSH cuts a call off after 60 s by default; long runs return a running handle anyway.",
    `        toolCallTimeoutMs: ${HOST_TOOL_TIMEOUT_MS}`,
    "        # A server that cannot start is an error, not a session silently without its tools.",
    "        failOnStartupError: true",
    "        reconnect:",
    `          enabled: ${DSH_RECONNECT.enabled}`,
    `          initialDelayMs: ${DSH_RECONNECT.initialDelayMs}`,
    `          maxDelayMs: ${DSH_RECONNECT.maxDelayMs}`,
    `          maxAttempts: ${DSH_RECONNECT.maxAttempts}`,
  );
  return lines.join("\n") + "\n";
}
