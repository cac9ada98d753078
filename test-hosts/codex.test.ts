// The real Codex CLI (test-hosts/package.json) with the snippet `print-config codex` prints:
// the config is accepted, and a `codex exec` session drives our tools end to end against a
// loopback mock of the Responses API. HOSTS.md has the facts these tests rely on.

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { SERVER_INSTRUCTION_LINES } from "../src/hosts/guidance.js";
import { renderHostConfig } from "../src/hosts/index.js";
import {
  codexConfigFor,
  codexExecArgs,
  completedToolCalls,
  enableApproval,
} from "./helpers/codex.js";
import { makeCodexHome, runCodex } from "./helpers/codex.js";
import type { CodexHome } from "./helpers/codex.js";
import { modelPayload, startMockResponses } from "./helpers/mock-responses.js";
import type { MockResponses } from "./helpers/mock-responses.js";
import { killProcessesMentioning, makeWorkspace, waitForNoProcesses } from "./helpers/server.js";
import type { Workspace } from "./helpers/server.js";

const BIG_OUTPUT_BYTES = 40_000; // past the default 32 KiB inline maximum
const BIG_OUTPUT_SCRIPT = `process.stdout.write("0123456789".repeat(${BIG_OUTPUT_BYTES / 10}))`;

let workspace: Workspace;
const homes: CodexHome[] = [];

beforeAll(() => {
  workspace = makeWorkspace("codex");
});

afterEach(async () => {
  killProcessesMentioning(workspace.root);
  await Promise.all(homes.splice(0).map((home) => home.dispose()));
});

afterAll(async () => {
  await workspace?.dispose();
});

function home(toml: string): string {
  const made = makeCodexHome(toml);
  homes.push(made);
  return made.dir;
}

describe("codex mcp get", () => {
  it.each(["as printed", "server approval", "per-tool approval"] as const)(
    "accepts the printed snippet (%s) with command, args, env and timeouts intact",
    async (variant) => {
      const printed = renderHostConfig("codex", workspace.launch);
      const toml =
        variant === "as printed"
          ? printed
          : enableApproval(printed, variant === "server approval" ? "server" : "per-tool");
      // Enabling approval must really change the file (the commented lines were found).
      expect(toml === printed).toBe(variant === "as printed");

      const result = await runCodex(home(toml), ["mcp", "get", "system-command", "--json"], 30_000);
      expect(result.code, result.stderr).toBe(0);
      const server = JSON.parse(result.stdout) as Record<string, any>;
      expect(server.name).toBe("system-command");
      expect(server.enabled).toBe(true);
      expect(server.transport.type).toBe("stdio");
      expect(server.transport.command).toBe(process.execPath);
      expect(server.transport.args).toEqual(workspace.launch.args);
      expect(server.transport.env).toEqual(workspace.launch.env);
      expect(server.transport.env_vars).toEqual([
        "LANG",
        "LC_ALL",
        "SSH_AUTH_SOCK",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "NO_PROXY",
        "TMPDIR",
      ]);
      expect(server.startup_timeout_sec).toBe(30);
      expect(server.tool_timeout_sec).toBe(300);
    },
  );
});

describe("codex exec against a mock model", () => {
  let mock: MockResponses | undefined;

  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it("drives system_environment, system_exec and system_output end to end", async () => {
    mock = await startMockResponses([
      { tool: "system_environment", args: () => ({}) },
      { tool: "system_exec", args: () => ({ program: "node", args: ["--version"] }) },
      { tool: "system_exec", args: () => ({ program: "node", args: ["-e", BIG_OUTPUT_SCRIPT] }) },
      {
        tool: "system_output",
        args: (outputs) => {
          const big = JSON.parse(modelPayload(outputs[2] ?? "")) as { artifact?: { id?: string } };
          return { id: big.artifact?.id ?? "missing", stream: "stdout", offset: 0, limit: 100 };
        },
      },
    ]);
    const codexHome = home(codexConfigFor(workspace.launch));
    // Codex cuts the middle out of any tool output past `tool_output_token_limit` (about 10k
    // tokens); raise it so the model-visible output can be compared whole.
    const args = codexExecArgs(mock.baseUrl, "run the scripted calls", [
      "tool_output_token_limit=200000",
    ]);
    const run = await runCodex(codexHome, args);
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.code, run.stderr).toBe(0);

    // The model saw our three tools under Codex's namespace for the server.
    const first = mock.requests[0];
    expect(first?.namespace).toBe("mcp__system_command");
    // Codex shows the server's `instructions` to the model as the namespace description.
    for (const line of SERVER_INSTRUCTION_LINES) {
      expect(first?.namespaceDescription).toContain(line);
    }
    const toolNames = first?.tools.map((tool) => tool.name);
    expect(toolNames).toEqual(
      expect.arrayContaining(["system_environment", "system_output", "system_exec"]),
    );

    const calls = completedToolCalls(run.stdout);
    expect(calls.map((call) => call.tool)).toEqual([
      "system_environment",
      "system_exec",
      "system_exec",
      "system_output",
    ]);
    for (const call of calls) {
      expect(call.server).toBe("system-command");
      expect(call.status, JSON.stringify(call.error)).toBe("completed");
    }
    const structured = calls.map((call) => call.result?.structured_content ?? {});

    // system_environment: the Root arrived intact through TOML and Codex.
    const environment = structured[0] as Record<string, any>;
    expect(environment.server?.name).toBe("system-command-mcp");
    expect(environment.roots).toEqual([workspace.root]);

    // system_exec node --version
    const version = structured[1] as Record<string, any>;
    expect(version.status).toBe("completed");
    expect(version.exitCode).toBe(0);
    expect(version.stdout.text).toBe(`${process.version}\n`);

    // A stream past the inline maximum is truncated and kept as an artifact.
    const big = structured[2] as Record<string, any>;
    expect(big.exitCode).toBe(0);
    expect(big.stdout.truncated).toBe(true);
    expect(big.stdout.totalBytes).toBe(BIG_OUTPUT_BYTES);
    expect(big.artifact.status).toBe("published");
    expect(big.artifact.id).toMatch(/^[0-9a-f]{32}$/);

    // system_output pages the artifact from byte 0.
    const page = structured[3] as Record<string, any>;
    expect(page.bytes).toBe(100);
    expect(page.nextOffset).toBe(100);
    expect(page.eof).toBe(false);
    expect(page.text).toBe("0123456789".repeat(10));

    // What the model received for each call is the whole structured result as JSON (after
    // Codex's own "Wall time" header); the text block is not shown.
    expect(mock.errors).toEqual([]);
    const last = mock.requests.at(-1);
    expect(last?.outputs).toHaveLength(4);
    last?.outputs.forEach((entry, index) => {
      expect(entry.output).toMatch(/^Wall time: [0-9.]+ seconds\nOutput:\n\{/);
      expect(JSON.parse(modelPayload(entry.output))).toEqual(structured[index]);
    });

    // Codex ended the server with the session.
    expect(await waitForNoProcesses(workspace.root)).toEqual([]);
  });

  it("keeps status and the artifact id visible when Codex cuts a large result", async () => {
    // Both streams past the inline maximum: about 64 KiB of JSON, beyond Codex's default
    // tool_output_token_limit, so Codex removes the middle before the model sees it. The
    // result's field order keeps the summary at the head and the artifact near the tail.
    const both = `${BIG_OUTPUT_SCRIPT}; process.stderr.write("e".repeat(${BIG_OUTPUT_BYTES}))`;
    mock = await startMockResponses([
      { tool: "system_exec", args: () => ({ program: "node", args: ["-e", both] }) },
    ]);
    const codexHome = home(codexConfigFor(workspace.launch));
    const run = await runCodex(codexHome, codexExecArgs(mock.baseUrl, "run the scripted call"));
    expect(run.code, run.stderr).toBe(0);

    const [call] = completedToolCalls(run.stdout);
    const result = call?.result?.structured_content as Record<string, any>;
    expect(result.stdout.truncated && result.stderr.truncated).toBe(true);
    expect(result.artifact.status).toBe("published");

    const seen = modelPayload(mock.requests.at(-1)?.outputs[0]?.output ?? "");
    expect(seen).toMatch(/tokens truncated/);
    expect(seen.startsWith('{"status":"completed","executionId":')).toBe(true);
    expect(seen).toContain(`"artifact":{"status":"published","id":"${result.artifact.id}"}`);
    expect(await waitForNoProcesses(workspace.root)).toEqual([]);
  });

  it("finishes a program longer than tool_timeout_sec through yield and system_wait", async () => {
    // Codex cancels a call after tool_timeout_sec (5 s here); the program runs 8 s. The scripted
    // calls pass yieldMs and waitMs well below that, so no call is ever cut off.
    const slow = "setTimeout(() => console.log('done after 8 s'), 8000)";
    const waitStep = (outputs: string[]) => {
      const handle = JSON.parse(modelPayload(outputs[0] ?? "")) as { executionId?: string };
      return { executionId: handle.executionId ?? "missing", waitMs: 3_000 };
    };
    mock = await startMockResponses([
      {
        tool: "system_exec",
        args: () => ({ program: "node", args: ["-e", slow], yieldMs: 1_500, timeoutMs: 60_000 }),
      },
      ...Array.from({ length: 5 }, () => ({ tool: "system_wait", args: waitStep })),
    ]);
    const toml = codexConfigFor(workspace.launch).replace(
      /tool_timeout_sec = \d+/,
      "tool_timeout_sec = 5",
    );
    expect(toml).toContain("tool_timeout_sec = 5");
    const codexHome = home(toml);
    const run = await runCodex(codexHome, codexExecArgs(mock.baseUrl, "run the scripted calls"));
    expect(run.code, run.stderr).toBe(0);

    const calls = completedToolCalls(run.stdout);
    expect(calls.map((call) => call.tool)).toEqual([
      "system_exec",
      ...Array(5).fill("system_wait"),
    ]);
    for (const call of calls) expect(call.status, JSON.stringify(call.error)).toBe("completed");
    const results = calls.map((call) => call.result?.structured_content as Record<string, any>);
    expect(results[0]?.status).toBe("running");
    expect(results.slice(1).some((result) => result.status === "running")).toBe(true);
    const last = results.at(-1)!;
    expect(last.status).toBe("completed");
    // What Codex's model read is the compact form: the completed run has no artifact, so no
    // executionId (the model named it in each wait), and only the stream that has bytes.
    expect(results[0]?.executionId).toMatch(/^[0-9a-f]{32}$/);
    expect(last).not.toHaveProperty("executionId");
    expect(last.exitCode).toBe(0);
    expect(last.stdout).toEqual({ text: "done after 8 s\n" });
    expect(last).not.toHaveProperty("stderr");
    expect(mock.errors).toEqual([]);
    expect(await waitForNoProcesses(workspace.root)).toEqual([]);
  });

  it("reports a tool error as an error result the model can read", async () => {
    mock = await startMockResponses([
      { tool: "system_exec", args: () => ({ program: "no-such-program" }) },
      { tool: "system_exec", args: () => ({ program: "node", args: ["-e", "process.exit(3)"] }) },
    ]);
    const codexHome = home(codexConfigFor(workspace.launch, "per-tool"));
    const run = await runCodex(codexHome, codexExecArgs(mock.baseUrl, "run the scripted calls"));
    expect(run.code, run.stderr).toBe(0);

    const calls = completedToolCalls(run.stdout);
    expect(calls).toHaveLength(2);
    const [unknown, nonzero] = calls;
    const unknownText = unknown?.result?.content.map((block) => block.text ?? "").join("") ?? "";
    expect(unknown?.status).toBe("failed");
    expect(unknownText).toMatch(/^PROGRAM_NOT_REGISTERED: /);
    expect(unknown?.result?.structured_content ?? null).toBeNull();

    // A nonzero exit is a result, not an error.
    expect(nonzero?.status).toBe("completed");
    expect(nonzero?.result?.structured_content).toMatchObject({ status: "completed", exitCode: 3 });

    // The model reads the coded message.
    expect(mock.errors).toEqual([]);
    const outputs = mock.requests.at(-1)?.outputs ?? [];
    expect(modelPayload(outputs[0]?.output ?? "")).toMatch(/^PROGRAM_NOT_REGISTERED: /);
    expect(await waitForNoProcesses(workspace.root)).toEqual([]);
  });
});
