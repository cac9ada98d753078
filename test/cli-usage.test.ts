// Usage errors, --help/--version, and that the management commands never load the MCP SDK (SPEC §13).

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  errorCode,
  removeDir,
  runCli,
  tempDir,
  writeExecutable,
  writeJson,
} from "./cli-helpers.js";

const COMMANDS = ["init", "doctor", "print-config", "migrate-manifest", "exec", "serve"];

let dir: string;
let manifest: string;

beforeAll(() => {
  dir = tempDir("scm-usage-");
  writeExecutable(path.join(dir, "bin", "tool"), "#!/bin/sh\necho tool\n");
  manifest = writeJson(path.join(dir, "m.json"), {
    version: 2,
    searchPath: [path.join(dir, "bin")],
    programs: { tool: { candidates: ["tool"], required: true } },
    probes: { tool: {} },
  });
});

afterAll(() => removeDir(dir));

describe("usage", () => {
  it("--help and --version exit 0, for the program and every command", () => {
    const version = runCli(["--version"]);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = runCli(["--help"]);
    expect(help.status).toBe(0);
    for (const command of COMMANDS) {
      expect(help.stdout).toContain(command);
      const commandHelp = runCli([command, "--help"]);
      expect(commandHelp.status).toBe(0);
      expect(commandHelp.stdout).toContain(`Usage: system-command-mcp ${command}`);
    }
  });

  it.each([
    ["UNKNOWN_COMMAND", ["frobnicate"]],
    ["UNKNOWN_OPTION", ["doctor", "--frobnicate"]],
    ["UNKNOWN_OPTION", ["print-config", "codex", "--yes"]],
    ["INVALID_OPTION", ["doctor", "--max-output-bytes", "lots"]],
    ["INVALID_OPTION", ["print-config", "codex", "--default-timeout-ms", "600001"]],
    ["INVALID_OPTION", ["print-config"]],
  ])("%s for %j: code, message and usage on stderr, exit 2", (code, args) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(errorCode(run.stderr)).toBe(code);
    expect(run.stderr).toContain("Usage: system-command-mcp");
    expect(run.stdout).toBe("");
  });
});

describe("a mistyped command", () => {
  it.each([
    ["docter", "doctor"],
    ["dcotor", "doctor"],
    ["exce", "exec"],
    ["print-conifg", "print-config"],
    ["Init", "init"],
  ])("%s → UNKNOWN_COMMAND naming %s, a short usage, exit 2", (typed, meant) => {
    const run = runCli([typed]);
    expect(run.status).toBe(2);
    expect(errorCode(run.stderr)).toBe("UNKNOWN_COMMAND");
    expect(run.stderr).toContain(`got "${typed}"; did you mean ${meant}?`);
    expect(run.stderr).toContain("Usage: system-command-mcp <command> [options]");
    // The short usage names the commands, not every option of the program.
    const lines = run.stderr.trim().split("\n");
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(run.stderr).not.toContain("--version");
    for (const command of COMMANDS) expect(run.stderr).toContain(command);
    expect(run.stdout).toBe("");
  });

  it("suggests nothing for a word close to no command", () => {
    const run = runCli(["frobnicate"]);
    expect(run.status).toBe(2);
    expect(run.stderr).not.toContain("did you mean");
    expect(run.stderr).toContain('got "frobnicate"');
  });
});

describe("no MCP SDK in the management commands", () => {
  let hook: string;
  let log: string;
  let readsHook: string;
  let readsLog: string;

  beforeAll(() => {
    // A module hook that records every URL the CLI resolves, through static and dynamic imports.
    log = path.join(dir, "resolved.log");
    const hooks = path.join(dir, "record-hooks.mjs");
    writeFileSync(
      hooks,
      'import { appendFileSync } from "node:fs";\n' +
        "export async function resolve(specifier, context, next) {\n" +
        "  const result = await next(specifier, context);\n" +
        '  appendFileSync(process.env.SCM_RESOLVE_LOG, result.url + "\\n");\n' +
        "  return result;\n" +
        "}\n",
    );
    hook = path.join(dir, "record.mjs");
    writeFileSync(
      hook,
      'import { register } from "node:module";\n' +
        `register(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    // The bundled CLI reads its bundles (dist/cli/bundle/*.cjs) as files and runs them as
    // scripts, past any module hook: record every file read through fs as well.
    readsLog = path.join(dir, "reads.log");
    readsHook = path.join(dir, "record-reads.cjs");
    writeFileSync(
      readsHook,
      'const fs = require("node:fs");\n' +
        "const original = fs.readFileSync;\n" +
        "fs.readFileSync = function (file, ...rest) {\n" +
        '  if (typeof file === "string") fs.appendFileSync(process.env.SCM_READS_LOG, file + "\\n");\n' +
        "  return original.call(this, file, ...rest);\n" +
        "};\n" +
        'require("node:module").syncBuiltinESMExports();\n',
    );
  });

  /** The URLs resolved, and the files read, while running the CLI with `args`. */
  function resolvedBy(args: string[]): string[] {
    writeFileSync(log, "");
    writeFileSync(readsLog, "");
    const env = {
      ...process.env,
      NODE_OPTIONS: `--require=${readsHook} --import=${pathToFileURL(hook).href}`,
      SCM_RESOLVE_LOG: log,
      SCM_READS_LOG: readsLog,
    };
    const run = runCli(args, { env, cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    const reads = readFileSync(readsLog, "utf8").split("\n").filter(Boolean);
    const urls = readFileSync(log, "utf8").split("\n").filter(Boolean);
    return [...urls, ...reads.map((file) => pathToFileURL(file).href)];
  }

  /** The SDK as a package, or as the bundle that holds it (dist/cli/bundle/sdk.cjs). */
  const sdk = (urls: string[]) =>
    urls.filter((url) => url.includes("@modelcontextprotocol") || url.endsWith("/bundle/sdk.cjs"));

  it("the recorder sees the SDK when serve loads it", () => {
    const urls = resolvedBy(["serve", "--root", dir]);
    expect(urls.some((url) => url.endsWith("/dist/cli/main.js"))).toBe(true);
    expect(sdk(urls).length).toBeGreaterThan(0);
  });

  it.each([
    ["doctor", () => ["doctor", "--manifest", manifest, "--root", dir]],
    ["doctor --execute", () => ["doctor", "--manifest", manifest, "--root", dir, "--execute"]],
    ["print-config", () => ["print-config", "codex", "--root", dir]],
    ["init", () => ["init", "--yes", path.join(dir, `init-${Date.now()}.json`)]],
    ["migrate-manifest --help", () => ["migrate-manifest", "--help"]],
  ])("%s loads no @modelcontextprotocol module", (_name, args) => {
    const urls = resolvedBy(args());
    // the recorder saw the CLI itself (its bundle and chunks) …
    expect(urls.some((url) => url.endsWith("/dist/cli/main.js"))).toBe(true);
    // … and none of the SDK, neither as a package nor through a chunk that imports it.
    expect(sdk(urls)).toEqual([]);
    expect(urls.filter((url) => /\/dist\/cli\/chunks\/serve-/.test(url))).toEqual([]);
  });
});
