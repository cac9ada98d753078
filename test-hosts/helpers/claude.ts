// The real Claude Code CLI (@anthropic-ai/claude-code, its native binary from the platform
// package npm installed beside it) run headless with a private HOME against the Anthropic mock,
// with telemetry, error reporting, auto-update and other non-essential traffic off (HOSTS.md).

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { CLAUDE_CODE_PERMISSION_RULE, renderHostConfig } from "../../src/hosts/index.js";
import { HOST_MODULES } from "./server.js";
import { runBounded } from "./run.js";
import type { RunResult } from "./run.js";
import type { HostHome } from "./home.js";
import { startMockAnthropic, type MockAnthropic } from "./mock-anthropic.js";
import type { HostResources } from "./resources.js";
import type { ScriptedTurn } from "./script.js";
import { expectCleanRun, type HostSession } from "./session.js";

/** Linux with musl instead of glibc (Alpine): its own platform package. */
export function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report?.header?.glibcVersionRuntime === undefined;
}

/**
 * The native binary: the platform package's `claude` (the wrapper package's own `bin/` entry is
 * filled in by an install script, which `npm ci` may not run).
 */
export function claudeBinary(): string {
  const libc = isMusl() ? "-musl" : "";
  const platformPackage = `claude-code-${process.platform}-${process.arch}${libc}`;
  const name = process.platform === "win32" ? "claude.exe" : "claude";
  return join(HOST_MODULES, "@anthropic-ai", platformPackage, name);
}

/** The environment Claude Code gets: private HOME, the mock as its API, no outside traffic. */
export function claudeEnv(home: HostHome, origin: string): NodeJS.ProcessEnv {
  return home.env({
    ANTHROPIC_BASE_URL: origin,
    ANTHROPIC_API_KEY: "sk-ant-mock-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    // Claude Code connects MCP servers without blocking the first model request and only waits
    // a short while for them; on a loaded machine our server can miss that first turn. Make it
    // wait for the connection (bounded by a generous startup limit).
    MCP_CONNECTION_NONBLOCKING: "false",
    MCP_TIMEOUT: "60000",
  });
}

/** `claude <args>` in the home, bounded in time. */
export function runClaude(
  home: HostHome,
  origin: string,
  args: string[],
  timeoutMs = 150_000,
): Promise<RunResult> {
  return runBounded(claudeBinary(), args, {
    env: claudeEnv(home, origin),
    cwd: home.dir,
    timeoutMs,
  });
}

/** The `.mcp.json` the snippet carries as comment lines after the `claude mcp add` line. */
export function mcpJsonOf(snippet: string): string {
  const lines = snippet.split("\n");
  const start = lines.findIndex((line) => line === "# {");
  if (start === -1) throw new Error("the Claude Code snippet holds no commented .mcp.json");
  const json: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith("#")) break;
    json.push(line.replace(/^# ?/, ""));
    if (line === "# }") break;
  }
  return json.join("\n");
}

/** Write the snippet's `.mcp.json` into the home; returns its path. */
export function writeMcpConfig(home: HostHome, snippet: string): string {
  const path = join(home.dir, "mcp.json");
  writeFileSync(path, mcpJsonOf(snippet));
  return path;
}

/**
 * `claude -p` flags (HOSTS.md): `--mcp-config` and `--allowedTools` take several values, so
 * another flag follows each before the prompt.
 */
export function claudePrintArgs(
  mcpConfig: string,
  allowedTools: string[] | undefined,
  prompt: string,
): string[] {
  return [
    "--mcp-config",
    mcpConfig,
    "--strict-mcp-config",
    ...(allowedTools === undefined ? [] : ["--allowedTools", ...allowedTools]),
    "--output-format",
    "stream-json",
    "--verbose",
    "--no-session-persistence",
    "--model",
    "claude-sonnet-4-5",
    "-p",
    prompt,
  ];
}

/** One event of `--output-format stream-json`. */
export type StreamEvent = Record<string, any>;

/** The JSON lines of a stream-json run. */
export function streamEvents(stdout: string): StreamEvent[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as StreamEvent);
}

/** Removes the `<system-reminder>` blocks Claude Code may append to a result. */
export function stripReminders(text: string): string {
  return text.replace(/\s*<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, "").trim();
}

/**
 * One `claude -p` session with the printed `.mcp.json` and the printed permission rule, against
 * a mock Anthropic API playing `turns`; our server gets `flags`, Claude Code `env` on top of its
 * own. Fails the test unless the session ended cleanly.
 */
export async function claudeSession(
  resources: HostResources,
  turns: ScriptedTurn[],
  options: { flags?: string[]; env?: Record<string, string> } = {},
): Promise<HostSession<MockAnthropic>> {
  const space = resources.workspace(options.flags);
  const model = resources.afterTest(await startMockAnthropic(turns), (made) => made.close());
  const dir = resources.home();
  const config = writeMcpConfig(dir, renderHostConfig("claude-code", space.launch));
  const args = claudePrintArgs(config, [CLAUDE_CODE_PERMISSION_RULE], "run the scripted calls");
  const run = await runBounded(claudeBinary(), args, {
    env: { ...claudeEnv(dir, model.origin), ...options.env },
    cwd: dir.dir,
    timeoutMs: 150_000,
  });
  expectCleanRun(run, model);
  return { run, model, space };
}
