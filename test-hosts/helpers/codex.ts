// The real Codex CLI from test-hosts/node_modules, run against a private CODEX_HOME.

import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { renderHostConfig } from "../../src/hosts/index.js";
import type { ServerLaunch } from "../../src/hosts/index.js";
import { HOST_MODULES } from "./server.js";
import { runBounded } from "./run.js";
import type { RunResult } from "./run.js";

/** The Codex launcher script shipped in @openai/codex (it starts the bundled native binary). */
export const CODEX_BIN = join(HOST_MODULES, "@openai", "codex", "bin", "codex.js");

export interface CodexHome {
  dir: string;
  dispose(): Promise<void>;
}

/** How the user turns the snippet's commented approval setting on (HOSTS.md: "approve"). */
export function enableApproval(snippet: string, style: "server" | "per-tool"): string {
  if (style === "server") {
    return snippet.replace(
      '# default_tools_approval_mode = "approve"',
      'default_tools_approval_mode = "approve"',
    );
  }
  return snippet
    .replace(/^# (\[mcp_servers\.system-command\.tools\.\w+\])$/gm, "$1")
    .replace(/^# (approval_mode = "approve")$/gm, "$1");
}

/** A CODEX_HOME whose config.toml is exactly `toml`. */
export function makeCodexHome(toml: string): CodexHome {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sc-codex-home-")));
  writeFileSync(join(dir, "config.toml"), toml);
  return { dir, dispose: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}

/** The printed Codex snippet for `launch`, with the approval line enabled. */
export function codexConfigFor(
  launch: ServerLaunch,
  style: "server" | "per-tool" = "server",
): string {
  return enableApproval(renderHostConfig("codex", launch), style);
}

/** Codex's environment: ours, with CODEX_HOME set and no real provider credentials. */
export function codexEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CODEX_HOME: home, NO_COLOR: "1" };
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  return env;
}

/** `codex <args>` with a private home, bounded in time. */
export function runCodex(home: string, args: string[], timeoutMs = 120_000): Promise<RunResult> {
  return runBounded(process.execPath, [CODEX_BIN, ...args], {
    env: codexEnv(home),
    cwd: home,
    timeoutMs,
  });
}

/**
 * `codex exec` flags for a mock model provider at `baseUrl` (HOSTS.md): no retries, approval
 * policy "never" (so only the server's approval setting lets system_exec run), read-only sandbox.
 */
export function codexExecArgs(
  baseUrl: string,
  prompt: string,
  extraConfig: string[] = [],
): string[] {
  const provider =
    `model_providers.mock={name="Mock",base_url="${baseUrl}",wire_api="responses",` +
    "request_max_retries=0,stream_max_retries=0}";
  return [
    "exec",
    "--json",
    "--skip-git-repo-check",
    "-c",
    "model=mock-model",
    "-c",
    "model_provider=mock",
    "-c",
    "approval_policy=never",
    "-c",
    "sandbox_mode=read-only",
    "-c",
    provider,
    ...extraConfig.flatMap((setting) => ["-c", setting]),
    prompt,
  ];
}

/** One `mcp_tool_call` item as `codex exec --json` reports it on completion. */
export interface McpToolCallItem {
  type: "mcp_tool_call";
  server: string;
  tool: string;
  arguments: unknown;
  status: string;
  error: unknown;
  result: {
    content: { type: string; text?: string }[];
    structured_content?: Record<string, unknown> | null;
  } | null;
}

/** The completed `mcp_tool_call` items of a `codex exec --json` run, in order. */
export function completedToolCalls(jsonl: string): McpToolCallItem[] {
  const calls: McpToolCallItem[] = [];
  for (const line of jsonl.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as { type?: string; item?: { type?: string } };
    if (event.type === "item.completed" && event.item?.type === "mcp_tool_call") {
      calls.push(event.item as McpToolCallItem);
    }
  }
  return calls;
}
