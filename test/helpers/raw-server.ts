// Drives the server over raw stdio (no SDK), to check the bytes on stdout and the exit paths.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import {
  CLI_ENTRY,
  withFullDetail,
  baseEnv,
  eventually,
  FIXTURES,
  removeDir,
  tempDir,
  writeManifest,
} from "./server.js";

export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Every line written to stdout so far. */
  lines: string[];
  stdoutBytes: () => Buffer;
  stderr: () => string;
  /** Writes one JSON-RPC line; a write to a server that already exited is dropped. */
  send: (message: object) => void;
  /** Sends the tools/call request `id`: tool `name` with `args`, and `_meta` when given. */
  callTool: (
    id: number,
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) => void;
  /** The error stdin reported (EPIPE once the server is gone), if any. */
  stdinError: () => Error | undefined;
  /** Resolves with the response to request `id`. */
  response: (id: number, ms?: number) => Promise<any>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  initialize: () => Promise<void>;
}

/** Spawns `node dist/cli/main.js serve …` with piped stdio. */
export function startRawServer(args: string[], env = baseEnv()): RawServer {
  const child = spawn(process.execPath, [CLI_ENTRY, "serve", ...withFullDetail(args)], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const chunks: Buffer[] = [];
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  const waiters = new Map<number, (message: any) => void>();
  const received = new Map<number, any>();
  child.stdout.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    partial += chunk.toString("utf8");
    let newline: number;
    while ((newline = partial.indexOf("\n")) >= 0) {
      const line = partial.slice(0, newline);
      partial = partial.slice(newline + 1);
      lines.push(line);
      try {
        const message = JSON.parse(line);
        if (typeof message.id === "number") {
          received.set(message.id, message);
          waiters.get(message.id)?.(message);
        }
      } catch {
        // kept in `lines`; the hygiene test fails on it
      }
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  // A write racing the child's exit fails with EPIPE: that is the test's business (the exit), not
  // an unhandled error event that would fail the whole run after every test passed.
  let stdinError: Error | undefined;
  child.stdin.on("error", (error) => (stdinError ??= error));
  const send = (message: object) => {
    if (child.stdin.destroyed || child.stdin.writableEnded) return;
    child.stdin.write(JSON.stringify(message) + "\n");
  };
  const callTool: RawServer["callTool"] = (id, name, args, meta) =>
    send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args, ...(meta !== undefined && { _meta: meta }) },
    });
  const response = (id: number, ms = 60_000) =>
    new Promise<any>((resolve, reject) => {
      if (received.has(id)) return resolve(received.get(id));
      const timer = setTimeout(() => reject(new Error(`no response to ${id} in ${ms} ms`)), ms);
      waiters.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  const initialize = async () => {
    send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "0" },
      },
    });
    await response(0);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
  };
  return {
    child,
    lines,
    stdoutBytes: () => Buffer.concat(chunks),
    stderr: () => stderr,
    send,
    callTool,
    stdinError: () => stdinError,
    response,
    exited,
    initialize,
  };
}

/**
 * Sends a system_exec of test/fixtures/pid-then-wait.sh (a shell leaving a background sleep in its
 * group) and resolves with the sleep's pid once the fixture wrote it — never a pid from empty text.
 */
export async function startTreeCall(
  server: RawServer,
  id: number,
  pidFile: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  server.callTool(id, "system_exec", {
    program: "sh",
    args: [path.join(FIXTURES, "pid-then-wait.sh"), pidFile],
    ...extra,
  });
  if (!(await eventually(() => existsSync(pidFile), 20_000))) {
    throw new Error(`the fixture wrote no pid to ${pidFile}`);
  }
  return readPidFile(pidFile);
}

/** The pid a fixture wrote, refusing anything that is not a real pid. */
export function readPidFile(file: string): number {
  const text = readFileSync(file, "utf8").trim();
  const pid = Number(text);
  if (!/^\d+$/.test(text) || pid <= 1) throw new Error(`expected a pid in ${file}, got "${text}"`);
  return pid;
}

/**
 * One raw server for a whole test file (the default test manifest, its temp dir as the Root),
 * initialized before the first test; stdin is ended and the directory removed after the last.
 */
export function shareRawServer(assign: (server: RawServer, dir: string) => void): void {
  let dir: string | undefined;
  let server: RawServer | undefined;
  beforeAll(async () => {
    dir = tempDir();
    server = startRawServer(["--manifest", writeManifest(dir), "--root", dir]);
    await server.initialize();
    assign(server, dir);
  });
  afterAll(async () => {
    if (server) {
      server.child.stdin.end();
      await server.exited;
    }
    if (dir) removeDir(dir);
  });
}
