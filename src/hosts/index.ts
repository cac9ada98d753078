// Configuration snippets for every supported host (SPEC §13 `print-config`, §14), one module
// per host. Snippets are text to paste; nothing here reads or edits a host's files.

import { claudeCodeTarget, renderClaudeCode } from "./claude-code.js";
import { claudeDesktopTarget, renderClaudeDesktop } from "./claude-desktop.js";
import { codexTarget, renderCodex } from "./codex.js";
import { cursorTarget, renderCursor } from "./cursor.js";
import { dshTarget, renderDsh } from "./dsh.js";
import { geminiNotes, geminiTarget, renderGemini } from "./gemini.js";
import { opencodeTarget, renderOpencode } from "./opencode.js";
import type { ServerLaunch } from "./launch.js";
import { renderVscode, vscodeTarget } from "./vscode.js";

export type { ServerLaunch } from "./launch.js";
export { HOST_STARTUP_TIMEOUT_MS, HOST_TOOL_TIMEOUT_MS, SERVER_NAME } from "./launch.js";
export { CODEX_ENV_VARS } from "./codex.js";
export { DSH_RECONNECT } from "./dsh.js";
export {
  CLAUDE_CODE_PERMISSION_RULE,
  claudeCodePermissionSettings,
  renderClaudeCodeMcpJson,
} from "./claude-code.js";

export type HostName =
  "codex" | "dsh" | "claude-desktop" | "claude-code" | "cursor" | "vscode" | "gemini" | "opencode";

/** The hosts `print-config` knows, in the order the docs list them. */
export const HOST_NAMES: readonly HostName[] = [
  "codex",
  "dsh",
  "claude-desktop",
  "claude-code",
  "cursor",
  "vscode",
  "gemini",
  "opencode",
];

/** The format a host's snippet is written in (what parses it). */
export type HostConfigFormat = "toml" | "yaml" | "json" | "shell";

interface HostModule {
  format: HostConfigFormat;
  render(launch: ServerLaunch, platform: NodeJS.Platform): string;
  target(platform: NodeJS.Platform): string;
  /** What the host needs beyond the snippet, where the format cannot say it in a comment. */
  notes?(): string[];
}

const HOSTS: Record<HostName, HostModule> = {
  codex: { format: "toml", render: renderCodex, target: codexTarget },
  dsh: { format: "yaml", render: renderDsh, target: dshTarget },
  "claude-desktop": { format: "json", render: renderClaudeDesktop, target: claudeDesktopTarget },
  "claude-code": { format: "shell", render: renderClaudeCode, target: claudeCodeTarget },
  cursor: { format: "json", render: renderCursor, target: cursorTarget },
  vscode: { format: "json", render: renderVscode, target: vscodeTarget },
  gemini: { format: "json", render: renderGemini, target: geminiTarget, notes: geminiNotes },
  opencode: { format: "json", render: renderOpencode, target: opencodeTarget },
};

/** Options of a rendering; the platform decides home-directory spelling and shell quoting. */
export interface RenderOptions {
  platform?: NodeJS.Platform;
}

/** Whether a string names a supported host (for validating `print-config <host>`). */
export function isHostName(value: string): value is HostName {
  return Object.prototype.hasOwnProperty.call(HOSTS, value);
}

/**
 * The configuration snippet for one host, in that host's own format. TOML, YAML and shell
 * snippets carry a comment naming their target file; JSON snippets are the JSON alone (so they
 * parse), and callers print {@link hostConfigTarget} beside them (the CLI: on stderr).
 */
export function renderHostConfig(
  host: HostName,
  launch: ServerLaunch,
  options: RenderOptions = {},
): string {
  return HOSTS[host].render(launch, options.platform ?? process.platform);
}

/** Which file (or command) a host's snippet belongs in, as one line for a human. */
export function hostConfigTarget(host: HostName, options: RenderOptions = {}): string {
  return HOSTS[host].target(options.platform ?? process.platform);
}

/**
 * Notes a user needs before the host offers the server's tools at all, one line each, for
 * snippets whose format has no comments (the CLI prints them on stderr); usually none.
 */
export function hostConfigNotes(host: HostName): string[] {
  return HOSTS[host].notes?.() ?? [];
}

/** The format of a host's snippet. */
export function hostConfigFormat(host: HostName): HostConfigFormat {
  return HOSTS[host].format;
}
