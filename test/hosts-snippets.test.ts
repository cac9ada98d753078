// `print-config` snippets (SPEC §13, §14): each host's output parses in that host's own format,
// with the right keys, absolute paths and every flag carried through; awkward paths survive.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

import { SERVER_INSTRUCTIONS, SERVER_INSTRUCTION_LINES } from "../src/hosts/guidance.js";
import {
  HOST_NAMES,
  hostConfigFormat,
  hostConfigNotes,
  hostConfigTarget,
  isHostName,
  renderHostConfig,
} from "../src/hosts/index.js";
import type { HostName, ServerLaunch } from "../src/hosts/index.js";

const REPO_ROOT = join(import.meta.dirname, "..");

/** Paths that break naive quoting in one format or another. */
const TRICKY = [
  "/opt/system command mcp/dist/cli/main.js",
  '/tmp/it\'s a "quoted" dir',
  "C:\\Users\\Ann Lee\\AppData\\Local\\scm",
  "/tmp/tab\there/new\nline",
  "/tmp/$HOME `x` $(y) #not-a-comment; a & b | c > d",
  "/tmp/ünïcødé/日本語/🙂",
  "/tmp/percent %PATH% and !bang! and ^caret",
  "/tmp/yaml: - [x] {y} *z &w ? ~ @",
  "/tmp/del\u007f and nel\u0085 and ls\u2028",
];

function launchWith(paths: string[], env?: Record<string, string>): ServerLaunch {
  const [entry = "/x/main.js", ...roots] = paths;
  const args = [entry, "serve", "--manifest", "/etc/scm/manifest.json"];
  for (const root of roots) args.push("--root", root);
  args.push("--max-output-bytes", "65536", "--default-timeout-ms", "45000");
  return { command: "/usr/local/bin/node", args, ...(env === undefined ? {} : { env }) };
}

const PLAIN = launchWith(["/srv/scm/dist/cli/main.js", "/home/ann/project"]);
const TRICKY_LAUNCH = launchWith(TRICKY, {
  SCM_NOTE: "value with spaces, 'quotes', \"doubles\" and \\ backslashes",
  LANG: "C.UTF-8",
});

/** The server entry each host would run, read back from the host's own format. */
interface ParsedServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
  raw: Record<string, unknown>;
}

function parseCodex(text: string): ParsedServer {
  const doc = parseToml(text) as any;
  const server = doc.mcp_servers["system-command"];
  return { command: server.command, args: server.args, env: server.env, raw: server };
}

function parseDsh(text: string): ParsedServer {
  const patch = parseYaml(text) as any[];
  expect(patch).toHaveLength(1);
  const rows = patch[0].insert as any[];
  expect(rows).toHaveLength(1);
  const config = rows[0].config;
  return { command: config.command, args: config.args, env: config.env, raw: rows[0] };
}

function parseJsonHost(text: string, topKey: string): ParsedServer {
  const doc = JSON.parse(text) as any;
  expect(Object.keys(doc)).toEqual([topKey]);
  expect(Object.keys(doc[topKey])).toEqual(["system-command"]);
  const server = doc[topKey]["system-command"];
  return { command: server.command, args: server.args, env: server.env, raw: server };
}

/** The words of the `claude mcp add` line, as a real POSIX shell splits them. */
function shellWords(text: string): string[] {
  const script = `claude() { for word in "$@"; do printf '%s\\0' "$word"; done; }\n${text}`;
  const result = spawnSync("sh", ["-c", script], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split("\0").slice(0, -1);
}

/** The `.mcp.json` given as comment lines after the command. */
function commentedJson(text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line === "# {");
  return lines
    .slice(start)
    .filter((line) => line.startsWith("#"))
    .map((line) => line.replace(/^# ?/, ""))
    .join("\n");
}

function parseClaudeCode(text: string): ParsedServer {
  const words = shellWords(text);
  expect(words.slice(0, 5)).toEqual(["mcp", "add", "--scope", "user", "system-command"]);
  const separator = words.indexOf("--");
  const env: Record<string, string> = {};
  for (let i = 5; i < separator; i += 2) {
    expect(words[i]).toBe("-e");
    const pair = words[i + 1] ?? "";
    env[pair.slice(0, pair.indexOf("="))] = pair.slice(pair.indexOf("=") + 1);
  }
  const [command = "", ...args] = words.slice(separator + 1);
  const json = parseJsonHost(commentedJson(text), "mcpServers");
  expect(json.raw.type).toBe("stdio");
  expect(json.command).toBe(command);
  expect(json.args).toEqual(args);
  return { command, args, env: separator > 5 ? env : undefined, raw: json.raw };
}

/** OpenCode's `mcp` entry: one `command` array (program, then arguments), `environment`. */
function parseOpencode(text: string): ParsedServer {
  const doc = JSON.parse(text) as any;
  expect(Object.keys(doc)).toEqual(["mcp"]);
  expect(Object.keys(doc.mcp)).toEqual(["system-command"]);
  const server = doc.mcp["system-command"];
  const [command, ...args] = server.command as string[];
  return { command: command ?? "", args, env: server.environment, raw: server };
}

const PARSERS: Record<HostName, (text: string) => ParsedServer> = {
  codex: parseCodex,
  dsh: parseDsh,
  "claude-desktop": (text) => parseJsonHost(text, "mcpServers"),
  "claude-code": parseClaudeCode,
  cursor: (text) => parseJsonHost(text, "mcpServers"),
  vscode: (text) => parseJsonHost(text, "servers"),
  gemini: (text) => parseJsonHost(text, "mcpServers"),
  opencode: parseOpencode,
};

const POSIX_HOSTS = HOST_NAMES.filter(
  (host) => host !== "claude-code" || process.platform !== "win32",
);

describe("host list", () => {
  it("names the hosts of SPEC §13, and OpenCode (docs/hosts.md)", () => {
    expect([...HOST_NAMES]).toEqual([
      "codex",
      "dsh",
      "claude-desktop",
      "claude-code",
      "cursor",
      "vscode",
      "gemini",
      "opencode",
    ]);
    expect(HOST_NAMES.every(isHostName)).toBe(true);
    expect(isHostName("emacs")).toBe(false);
    expect(isHostName("toString")).toBe(false);
  });

  it.each(HOST_NAMES)("%s: says where its snippet belongs, on every platform", (host) => {
    for (const platform of ["linux", "darwin", "win32"] as const) {
      expect(hostConfigTarget(host, { platform }).length).toBeGreaterThan(5);
    }
  });

  it("prints the target as a comment where the format has comments, and JSON alone", () => {
    for (const host of HOST_NAMES) {
      const text = renderHostConfig(host, PLAIN, { platform: "linux" });
      if (hostConfigFormat(host) === "json") {
        expect(text.startsWith("{"), host).toBe(true);
      } else {
        expect(text.split("\n")[0], host).toMatch(/^# system-command-mcp for /);
      }
    }
    expect(renderHostConfig("codex", PLAIN, { platform: "linux" })).toContain(
      hostConfigTarget("codex", { platform: "linux" }),
    );
    expect(renderHostConfig("dsh", PLAIN, { platform: "linux" })).toContain(
      hostConfigTarget("dsh", { platform: "linux" }),
    );
  });
});

describe.each(POSIX_HOSTS)("%s snippet", (host) => {
  const parse = PARSERS[host];

  it("parses in the host's format with absolute command and entry, flags in order", () => {
    const server = parse(renderHostConfig(host, PLAIN, { platform: "linux" }));
    expect(server.command).toBe("/usr/local/bin/node");
    expect(server.args).toEqual(PLAIN.args);
    expect(server.args[0]).toMatch(/^\//);
    expect(server.args[1]).toBe("serve");
    expect(server.env).toBeUndefined();
  });

  it("keeps awkward paths and environment values byte for byte", () => {
    const server = parse(renderHostConfig(host, TRICKY_LAUNCH, { platform: "linux" }));
    expect(server.command).toBe(TRICKY_LAUNCH.command);
    expect(server.args).toEqual(TRICKY_LAUNCH.args);
    expect(server.env).toEqual(TRICKY_LAUNCH.env);
  });

  it.each(TRICKY)("survives %j as the node path too", (path) => {
    const launch: ServerLaunch = { command: path, args: [path, "serve", "--root", path] };
    const server = parse(renderHostConfig(host, launch, { platform: "linux" }));
    expect(server.command).toBe(path);
    expect(server.args).toEqual(launch.args);
  });
});

describe("host-specific settings", () => {
  it("codex: required, timeouts, env_vars, and approval lines that work once uncommented", () => {
    const text = renderHostConfig("codex", PLAIN, { platform: "linux" });
    const server = parseCodex(text).raw;
    expect(server).toMatchObject({
      required: true,
      startup_timeout_sec: 30,
      tool_timeout_sec: 300,
      env_vars: [
        "LANG",
        "LC_ALL",
        "SSH_AUTH_SOCK",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "TMPDIR",
      ],
    });
    expect(server.default_tools_approval_mode).toBeUndefined();
    expect(text).toMatch(/^# default_tools_approval_mode = "approve"$/m);
    expect(text).toMatch(/not read-only/);

    const serverWide = text.replace(/^# (default_tools_approval_mode = .*)$/m, "$1");
    expect(parseCodex(serverWide).raw.default_tools_approval_mode).toBe("approve");

    const perTool = text
      .replace(/^# (\[mcp_servers\.system-command\.tools\.\w+\])$/gm, "$1")
      .replace(/^# (approval_mode = "approve")$/gm, "$1");
    expect(parseCodex(perTool).raw.tools).toEqual({
      system_exec: { approval_mode: "approve" },
      system_cancel: { approval_mode: "approve" },
    });
    expect(parseCodex(perTool).args).toEqual(PLAIN.args);
  });

  it("dsh: plugin row with timeout, startup failure and bounded reconnect", () => {
    const row = parseDsh(renderHostConfig("dsh", PLAIN, { platform: "linux" })).raw as any;
    expect(row.id).toBe("mcp-system-command");
    expect(row.name).toBe("@deepseek-ai/dsh-mcp-client");
    expect(row.config).toMatchObject({
      serverName: "system-command",
      transport: "stdio",
      toolCallTimeoutMs: 300_000,
      failOnStartupError: true,
      reconnect: { enabled: true, initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 },
    });
    expect(row.config.serverName).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });

  it("vscode: explicit stdio type under `servers`", () => {
    const server = parseJsonHost(renderHostConfig("vscode", PLAIN), "servers").raw;
    expect(server.type).toBe("stdio");
  });

  it("gemini: a millisecond timeout and a server name without underscores", () => {
    const text = renderHostConfig("gemini", PLAIN);
    expect(parseJsonHost(text, "mcpServers").raw.timeout).toBe(300_000);
    expect(Object.keys(JSON.parse(text).mcpServers)[0]).not.toContain("_");
  });

  it("gemini: notes on `trust` and folder trust beside the JSON, which cannot carry them", () => {
    const notes = hostConfigNotes("gemini");
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain('"trust": true');
    expect(notes[0]).toContain("gemini -p");
    expect(notes[1]).toContain("--skip-trust");
    expect(notes[1]).toContain("GEMINI_CLI_TRUST_WORKSPACE=true");
    // The JSON itself leaves trust to the user (it skips every confirmation).
    expect(parseJsonHost(renderHostConfig("gemini", PLAIN), "mcpServers").raw.trust).toBe(
      undefined,
    );
  });

  it("claude-code: the permission rule, as a --allowedTools value and as settings.json", () => {
    const text = renderHostConfig("claude-code", PLAIN);
    const comments = text.split("\n").filter((line) => line.startsWith("#"));
    expect(comments).toContain(
      "# this server's tools for one session: claude --allowedTools mcp__system-command",
    );
    const settings = comments.find((line) => line.startsWith('# {"permissions"')) ?? "";
    expect(JSON.parse(settings.slice(2))).toEqual({
      permissions: { allow: ["mcp__system-command"] },
    });
    // The rule and settings are comments: the shell runs only the `claude mcp add` line.
    expect(shellWords(text).slice(0, 5)).toEqual([
      "mcp",
      "add",
      "--scope",
      "user",
      "system-command",
    ]);
  });

  it("only gemini needs notes beside its snippet", () => {
    for (const host of HOST_NAMES) {
      expect(hostConfigNotes(host).length > 0, host).toBe(host === "gemini");
    }
  });

  it("opencode: a local server, enabled, with a millisecond timeout", () => {
    const server = parseOpencode(renderHostConfig("opencode", TRICKY_LAUNCH)).raw;
    expect(Object.keys(server)).toEqual(["type", "command", "environment", "enabled", "timeout"]);
    expect(server.type).toBe("local");
    expect(server.enabled).toBe(true);
    expect(server.timeout).toBe(300_000);
    expect(hostConfigTarget("opencode", { platform: "linux" })).toContain(
      "~/.config/opencode/opencode.json",
    );
  });

  it("cursor: server name + longest tool name stay within 60 characters", () => {
    const name = Object.keys(JSON.parse(renderHostConfig("cursor", PLAIN)).mcpServers)[0] ?? "";
    expect(name.length + "system_environment".length).toBeLessThanOrEqual(60);
  });

  it("claude-desktop and cursor: command, args and env only", () => {
    for (const host of ["claude-desktop", "cursor"] as const) {
      const server = parseJsonHost(renderHostConfig(host, TRICKY_LAUNCH), "mcpServers").raw;
      expect(Object.keys(server)).toEqual(["command", "args", "env"]);
    }
  });
});

/** A PowerShell argument list of bare words and '…' literal strings ('' inside = one '). */
function powershellWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] === " ") {
      i++;
      continue;
    }
    let word = "";
    if (line[i] === "'") {
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`unterminated quote in ${line}`);
        if (line[i] === "'" && line[i + 1] === "'") {
          word += "'";
          i += 2;
        } else if (line[i] === "'") {
          i++;
          break;
        } else word += line[i++];
      }
    } else {
      while (i < line.length && line[i] !== " ") word += line[i++];
      expect(word).toMatch(/^[A-Za-z0-9_+=:,./\\-]+$/);
    }
    words.push(word);
  }
  return words;
}

describe("claude-code on Windows", () => {
  it("quotes for PowerShell, including the `--` separator", () => {
    const launch: ServerLaunch = {
      command: "C:\\Program Files\\nodejs\\node.exe",
      args: ["C:\\Users\\Ann O'Neil\\scm\\dist\\cli\\main.js", "serve", "--root", "D:\\work dir"],
    };
    const text = renderHostConfig("claude-code", launch, { platform: "win32" });
    const line = text.split("\n").find((entry) => entry.startsWith("claude ")) ?? "";
    const words = powershellWords(line);
    expect(words.slice(0, 7)).toEqual([
      "claude",
      "mcp",
      "add",
      "--scope",
      "user",
      "system-command",
      "--",
    ]);
    expect(line).toContain(" '--' ");
    expect(words.slice(7)).toEqual([launch.command, ...launch.args]);
    const json = parseJsonHost(commentedJson(text), "mcpServers");
    expect(json.args).toEqual(launch.args);
  });

  it("uses Windows home spellings in targets", () => {
    expect(hostConfigTarget("codex", { platform: "win32" })).toContain("%USERPROFILE%");
    expect(hostConfigTarget("claude-desktop", { platform: "win32" })).toContain("%APPDATA%");
    expect(hostConfigTarget("claude-desktop", { platform: "darwin" })).toContain(
      "Library/Application Support/Claude",
    );
  });
});

describe("server instructions", () => {
  it("are three lines covering the §14 guidance", () => {
    expect(SERVER_INSTRUCTIONS.split("\n")).toHaveLength(3);
    for (const phrase of [
      "system_exec",
      "literal args",
      "host shell",
      "pipelines",
      "redirects",
      "globbing",
      "expansion",
      "cd",
      "file tools",
      "not a sandbox",
      "nonzero exit",
      "system_output",
      "background: true",
      'status "running"',
      "system_wait",
      "executionId",
      "system_cancel",
    ]) {
      expect(SERVER_INSTRUCTIONS).toContain(phrase);
    }
  });

  it.each(["AGENTS.md", "DSH.md"])("%s quotes the same three lines", (file) => {
    const text = readFileSync(join(REPO_ROOT, file), "utf8");
    const block = text.slice(
      text.indexOf("<!-- guidance:begin"),
      text.indexOf("<!-- guidance:end"),
    );
    const lines = block
      .split("\n")
      .filter((line) => line.startsWith("- "))
      .map((line) => line.slice(2));
    expect(lines).toEqual([...SERVER_INSTRUCTION_LINES]);
  });
});
