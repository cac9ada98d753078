// Starts the real server (dist/cli/main.js) over stdio with the SDK's own client.

import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect } from "vitest";
import { resultChecker } from "./result-schemas.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI_ENTRY = path.join(REPO_ROOT, "dist/cli/main.js");
export const FIXTURES = path.join(REPO_ROOT, "test/fixtures");

/** A temporary directory (real path) removed by the returned cleanup. */
export function tempDir(prefix = "scm-test-"): string {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A v2 manifest registering common POSIX programs plus node, written to dir. */
export function writeManifest(dir: string, manifest?: object): string {
  const file = path.join(dir, "manifest.json");
  writeFileSync(file, JSON.stringify(manifest ?? defaultManifest(), null, 2));
  return file;
}

/** Programs the behaviour tests need, with stdin allowed for cat. */
export function defaultManifest(extra: Record<string, unknown> = {}): object {
  return {
    version: 2,
    searchPath: [path.dirname(process.execPath), "/usr/bin", "/bin"],
    programs: {
      sh: { candidates: ["/bin/sh"] },
      node: { candidates: [process.execPath], policy: { allowStdin: true } },
      cat: { candidates: ["cat"], policy: { allowStdin: true } },
      sleep: { candidates: ["sleep"] },
      true: { candidates: ["true"] },
      ...extra,
    },
  };
}

/** Only node, which may run in the background: the manifest of the output and wait tests. */
export function backgroundNodeManifest(): object {
  return {
    version: 2,
    programs: { node: { candidates: [process.execPath], policy: { allowBackground: true } } },
  };
}

export interface TestServer {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderr: () => string;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  /** structuredContent of a successful call (throws when the call was a tool error). */
  exec: (args: Record<string, unknown>) => Promise<Record<string, any>>;
  close: () => Promise<void>;
}

export interface StartOptions {
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Pass `args` as they are (no --result-detail full added: see withFullDetail). */
  asGiven?: boolean;
  /** Runs the server under another identity (helpers/identity.ts: setpriv as uid 65534). */
  runAs?: { wrap(command: string, args: string[]): { command: string; args: string[] } };
}

/**
 * `serve` arguments with `--result-detail full` unless they choose: the suite checks the whole
 * result; the compact form has its own tests (compact-results.e2e.test.ts) and the host tests.
 */
export function withFullDetail(args: string[]): string[] {
  return args.includes("--result-detail") ? args : [...args, "--result-detail", "full"];
}

/** Spawns `node dist/cli/main.js serve …` and connects the SDK client. */
export async function startServer(options: StartOptions): Promise<TestServer> {
  const serveArgs = [
    CLI_ENTRY,
    "serve",
    ...(options.asGiven ? options.args : withFullDetail(options.args)),
  ];
  const launch = options.runAs
    ? options.runAs.wrap(process.execPath, serveArgs)
    : { command: process.execPath, args: serveArgs };
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: options.env ?? baseEnv(),
    cwd: options.cwd,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "scm-tests", version: "0.0.0" });
  await client.connect(transport);
  // Every successful result is checked against the outputSchema this server serves (SPEC §3);
  // after listTools() the SDK client checks structuredContent against it too.
  const checker = resultChecker((await client.listTools()).tools);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    checker.check(name, result);
    return result;
  };
  return {
    client,
    transport,
    pid: transport.pid!,
    stderr: () => stderr,
    call,
    exec: async (args) => {
      const result = await call("system_exec", args);
      if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Record<string, any>;
    },
    close: () => client.close(),
  };
}

/**
 * Waits (`system_wait` with `until`) for a line of a running execution matching `pattern`;
 * fails the test when none matched within `waitMs`. Returns the match.
 */
export async function waitForLine(
  server: TestServer,
  executionId: string,
  pattern: string,
  options: { stream?: "stdout" | "stderr"; waitMs?: number } = {},
): Promise<{ offset: number; text: string }> {
  const { stream, waitMs = 20_000 } = options;
  const result = await server.call("system_wait", {
    executionId,
    waitMs,
    until: { pattern, ...(stream !== undefined && { stream }) },
  });
  const match = (result.structuredContent as { match?: { offset: number; text: string } })?.match;
  expect(match, `no line matching ${pattern} within ${waitMs} ms`).toBeDefined();
  return match!;
}

/** The minimal environment the SDK's hosts give a server, plus what the tests need. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["HOME", "PATH", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // Crash-safety registry files of test servers stay out of the user's state directory.
  env.XDG_STATE_HOME = path.join(os.tmpdir(), "scm-test-state");
  return { ...env, ...extra };
}

/** The text of a tool error result ("CODE: message"). */
export function errorText(result: CallToolResult): string {
  const block = result.content[0];
  return block && block.type === "text" ? block.text : "";
}

/** Whether a pid is alive (and not a zombie) — for checking that trees are gone. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`refusing to probe pid ${pid}`);
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls a condition until true or the deadline; resolves whether it held. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** The usual configured-mode arguments: the manifest written into `dir`, `dir` as the Root and a
 * private artifact store inside it, then any extra flags. */
export function configuredArgs(dir: string, manifest?: object, extra: string[] = []): string[] {
  return [
    "--manifest",
    writeManifest(dir, manifest),
    "--root",
    dir,
    "--artifact-dir",
    path.join(dir, "artifacts"),
    ...extra,
  ];
}

/** Runs `body` against a server of its own in a fresh temp dir, then closes it and removes the dir. */
export async function withServer<T>(
  manifest: object | undefined,
  extra: string[],
  body: (server: TestServer, dir: string) => Promise<T>,
): Promise<T> {
  const dir = tempDir();
  const server = await startServer({ args: configuredArgs(dir, manifest, extra) });
  try {
    return await body(server, dir);
  } finally {
    await server.close();
    removeDir(dir);
  }
}

/**
 * One server for a whole test file: started in a fresh temp dir before the file's tests, closed
 * (and the dir removed) after them. `assign` receives the server and its dir for the tests to use.
 */
export function shareServer(
  manifest: object | undefined,
  extra: string[],
  assign: (server: TestServer, dir: string) => void,
): void {
  let dir: string | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({ args: configuredArgs(dir, manifest, extra) });
    assign(server, dir);
  });
  afterAll(async () => {
    await server?.close();
    if (dir) removeDir(dir);
  });
}
