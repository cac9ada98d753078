// `print-config <host>`: each host's snippet parses in its own format and carries the flags (SPEC §13).

import { mkdirSync } from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_NAMES, hostConfigFormat, type HostName } from "../src/hosts/index.js";
import { CLI_ENTRY, errorCode, removeDir, runCli, tempDir, writeJson } from "./cli-helpers.js";

let dir: string;
let manifest: string;

beforeAll(() => {
  dir = tempDir("scm-print-");
  manifest = writeJson(path.join(dir, "m.json"), { version: 2, programs: {} });
});

afterAll(() => removeDir(dir));

/** The first object in a parsed snippet that has a `command` (the server entry). */
function serverEntry(value: unknown): { command: string; args: string[] } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if ("command" in value && "args" in value) return value as { command: string; args: string[] };
  // OpenCode: one `command` array, program first.
  if ("command" in value && Array.isArray(value.command)) {
    const [command, ...args] = value.command as string[];
    return { command: command ?? "", args };
  }
  for (const child of Object.values(value)) {
    const found = serverEntry(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Parses a snippet in its host's format; for Claude Code, the commented `.mcp.json`. */
function parseSnippet(host: HostName, text: string): unknown {
  const format = hostConfigFormat(host);
  if (format === "toml") return parseToml(text);
  if (format === "yaml") return parseYaml(text);
  if (format === "json") return JSON.parse(text);
  const lines = text.split("\n");
  const json = lines
    .slice(lines.indexOf("# {"))
    .filter((line) => line.startsWith("# "))
    .map((line) => line.slice(2))
    .join("\n");
  return JSON.parse(json);
}

const FLAGS = [
  "--max-output-bytes",
  "1000",
  "--default-timeout-ms",
  "45000",
  "--artifact-dir",
  "artifacts",
];

describe("print-config", () => {
  it.each(HOST_NAMES)("%s: parses and carries manifest, Roots and runtime flags", (host) => {
    const run = runCli(
      ["print-config", host, "--manifest", manifest, "--root", dir, "--root", "/tmp", ...FLAGS],
      { cwd: dir },
    );
    expect(run.status).toBe(0);
    const entry = serverEntry(parseSnippet(host, run.stdout));
    expect(entry).toBeDefined();
    expect(entry!.command).toBe(process.execPath);
    expect(entry!.args).toEqual([
      CLI_ENTRY,
      "serve",
      "--manifest",
      manifest,
      "--root",
      dir,
      "--root",
      "/tmp",
      // runtime flags in the order the CLI declares them; paths made absolute
      "--artifact-dir",
      path.join(dir, "artifacts"),
      "--max-output-bytes",
      "1000",
      "--default-timeout-ms",
      "45000",
    ]);
    if (hostConfigFormat(host) === "json") {
      expect(run.stderr).toMatch(/^system-command-mcp: put this in /);
    } else {
      expect(run.stderr).toBe("");
    }
  });

  it("gemini notes on stderr what Gemini needs to offer the tools (trust, folder trust)", () => {
    const run = runCli(["print-config", "gemini", "--root", dir]);
    expect(run.status).toBe(0);
    JSON.parse(run.stdout);
    const notes = run.stderr.split("\n").filter((line) => line.includes(": note: "));
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain('"trust": true');
    expect(notes[1]).toContain("--skip-trust");
  });

  it("warns on stderr about a missing or relative --root/--manifest, and still prints", () => {
    const missingRoot = path.join(dir, "no-such-root");
    const missingManifest = path.join(dir, "no-such.json");
    const run = runCli(
      ["print-config", "codex", "--manifest", missingManifest, "--root", missingRoot],
      { cwd: dir },
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`warning: --manifest ${missingManifest} does not exist`);
    expect(run.stderr).toContain(`warning: --root ${missingRoot} does not exist`);
    const args = serverEntry(parseToml(run.stdout))!.args;
    expect(args).toEqual([
      CLI_ENTRY,
      "serve",
      "--manifest",
      missingManifest,
      "--root",
      missingRoot,
    ]);

    const relative = runCli(["print-config", "codex", "--manifest", "m.json", "--root", "."], {
      cwd: dir,
    });
    expect(relative.status).toBe(0);
    expect(relative.stderr).toContain("--manifest m.json is not absolute");
    expect(relative.stderr).toContain("--root . is not absolute");
    expect(relative.stderr).not.toContain("does not exist");
    expect(serverEntry(parseToml(relative.stdout))!.args).toEqual([
      CLI_ENTRY,
      "serve",
      "--manifest",
      manifest,
      "--root",
      dir,
    ]);

    const wrongKind = runCli(["print-config", "codex", "--manifest", dir, "--root", manifest]);
    expect(wrongKind.status).toBe(0);
    expect(wrongKind.stderr).toContain(`--manifest ${dir} is not a file`);
    expect(wrongKind.stderr).toContain(`--root ${manifest} is not a directory`);
  });

  it("expands a literal ~ to the home directory instead of <cwd>/~", () => {
    const home = path.join(dir, "home");
    mkdirSync(path.join(home, "src"), { recursive: true });
    const run = runCli(
      ["print-config", "codex", "--manifest", manifest, "--root", "~/src", "--root", "~"],
      { cwd: dir, env: { ...process.env, HOME: home } },
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const args = serverEntry(parseToml(run.stdout))!.args;
    expect(args.slice(-4)).toEqual(["--root", path.join(home, "src"), "--root", home]);
  });

  it("claude-code prints a runnable `claude mcp add` line", () => {
    const run = runCli(["print-config", "claude-code", "--root", dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^claude mcp add --scope user system-command -- /m);
    expect(run.stdout).toContain(CLI_ENTRY);
  });

  it("without --root, notes that the host's directory becomes the Root", () => {
    const run = runCli(["print-config", "codex"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("no --root given");
  });

  it("rejects an unknown host listing the known ones (INVALID_OPTION, exit 2)", () => {
    const run = runCli(["print-config", "emacs"]);
    expect(run.status).toBe(2);
    expect(errorCode(run.stderr)).toBe("INVALID_OPTION");
    for (const host of HOST_NAMES) expect(run.stderr).toContain(host);
    expect(run.stdout).toBe("");
  });

  it("refuses a configuration the server would refuse", () => {
    const noRoot = runCli(["print-config", "codex", "--manifest", manifest]);
    expect(noRoot.status).toBe(2);
    expect(errorCode(noRoot.stderr)).toBe("ROOT_REQUIRED");
    const conflict = runCli([
      "print-config",
      "codex",
      "--max-output-bytes",
      "100",
      "--inline-head-bytes",
      "200",
    ]);
    expect(conflict.status).toBe(1);
    expect(errorCode(conflict.stderr)).toBe("INVALID_RUNTIME_CONFIG");
    const badNumber = runCli(["print-config", "codex", "--max-concurrent-executions", "0"]);
    expect(badNumber.status).toBe(2);
    expect(errorCode(badNumber.stderr)).toBe("INVALID_OPTION");
  });
});
