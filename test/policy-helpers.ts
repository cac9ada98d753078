// Shared pieces of the argument-rule, approval and audit tests (SPEC §21, §22): a manifest with
// rule-guarded programs, and a server whose state directory (approvals) is private to the test.

import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll } from "vitest";
import { runCli, type CliRun } from "./cli-helpers.js";
import {
  baseEnv,
  CLI_ENTRY,
  withFullDetail,
  configuredArgs,
  defaultManifest,
  removeDir,
  tempDir,
} from "./helpers/server.js";

/**
 * git: a lease-protected force push asks, a plain force push is denied wherever the options
 * stand, and a push naming main is denied; node: a deny on -p and an ask on --ask-* flags.
 */
export const GUARDED_RULES = {
  git: [
    {
      match: { contains: ["push", "--force-with-lease*"] },
      decision: "ask",
      reason: "a force push rewrites shared history",
    },
    {
      match: { contains: ["push", ["--force", "-f"]] },
      decision: "deny",
      reason: "plain force pushes are never allowed; use --force-with-lease",
    },
    {
      match: { prefix: ["push"], contains: ["main"] },
      decision: "deny",
      reason: "nobody pushes to main directly",
    },
  ],
  node: [
    { match: { prefix: ["-p"] }, decision: "deny", reason: "no printing one-liners" },
    {
      match: { contains: ["--ask-*"] },
      decision: "ask",
      reason: "flags starting --ask- need a human",
    },
  ],
};

/** The default test manifest plus git, with GUARDED_RULES on git and node. */
export function guardedManifest(extra: Record<string, unknown> = {}): Record<string, any> {
  const manifest = defaultManifest() as Record<string, any>;
  manifest.programs.git = { candidates: ["/usr/bin/git"], rules: GUARDED_RULES.git };
  manifest.programs.node.rules = GUARDED_RULES.node;
  return { ...manifest, ...extra };
}

/** `true` asks for "--ask" anywhere: it starts in milliseconds, so timing bounds stay loose. */
export const ASK_RULE = {
  match: { contains: ["--ask"] },
  decision: "ask",
  reason: "a human must say yes",
};

/** guardedManifest(`extra`) whose `true` has the one rule ASK_RULE. */
export function askManifest(extra: Record<string, unknown> = {}): Record<string, any> {
  const manifest = guardedManifest(extra);
  manifest.programs.true.rules = [ASK_RULE];
  return manifest;
}

/** The 32-hex id an APPROVAL_REQUIRED text carries; throws when it carries none. */
export function approvalIdOf(text: string): string {
  const match = /approval id ([0-9a-f]{32})/.exec(text);
  if (!match) throw new Error(`no approval id in ${JSON.stringify(text)}`);
  return match[1]!;
}

/** The environment of a test server whose per-user state lives in `dir`/state. */
export function stateEnv(dir: string): Record<string, string> {
  return baseEnv({ XDG_STATE_HOME: path.join(dir, "state") });
}

/** Runs the CLI with the per-user state of `dir` (stateEnv): approve, deny, audit … */
export function stateCli(dir: string, args: string[]): CliRun {
  return runCli(args, { env: stateEnv(dir) });
}

/** Where that server keeps its pending approvals. */
export function approvalsDir(dir: string): string {
  return path.join(dir, "state", "system-command-mcp", "approvals");
}

export interface PolicyClient {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * The real server with the SDK client; `elicitation` declares the capability and answers every
 * elicitation/create with the handler (it receives the request params).
 */
export async function startPolicyServer(options: {
  args: string[];
  env: Record<string, string>;
  elicitation?: (params: Record<string, any>) => Promise<Record<string, unknown>>;
  command?: { command: string; args: string[] };
}): Promise<PolicyClient> {
  const transport = new StdioClientTransport({
    command: options.command?.command ?? process.execPath,
    args: options.command?.args ?? [CLI_ENTRY, "serve", ...withFullDetail(options.args)],
    env: options.env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client(
    { name: "scm-policy-tests", version: "1.2.3" },
    options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (options.elicitation) {
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const handler = options.elicitation;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      return (await handler(request.params as Record<string, any>)) as any;
    });
  }
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      })) as CallToolResult,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/**
 * One policy server for the tests around it (a describe or a whole file): started before them in
 * a fresh temp dir (the manifest written there, the dir its Root, its state private: stateEnv),
 * closed and the dir removed after them. `assign` receives the server and its dir.
 */
export function sharePolicyServer(
  manifest: object,
  assign: (server: PolicyClient, dir: string) => void,
  options: { elicitation?: (params: Record<string, any>) => Promise<Record<string, unknown>> } = {},
): void {
  let dir: string | undefined;
  let server: PolicyClient | undefined;
  beforeAll(async () => {
    dir = tempDir();
    server = await startPolicyServer({
      args: configuredArgs(dir, manifest),
      env: stateEnv(dir),
      ...options,
    });
    assign(server, dir);
  });
  afterAll(async () => {
    await server?.close();
    if (dir) removeDir(dir);
  });
}

/** The text of a result's first block. */
export function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block && block.type === "text" ? block.text : "";
}
