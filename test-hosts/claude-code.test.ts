// The real Claude Code CLI (test-hosts/package.json) with the snippet `print-config claude-code`
// prints: the printed `claude mcp add` line registers a server that connects, and `claude -p`
// sessions against a loopback mock of the Anthropic Messages API drive our tools end to end.
// The mock records the tool results Claude Code sent back: what the model really saw.

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { SERVER_INSTRUCTION_LINES } from "../src/hosts/guidance.js";
import { CLAUDE_CODE_PERMISSION_RULE, renderHostConfig } from "../src/hosts/index.js";
import {
  claudeBinary,
  claudeEnv,
  claudePrintArgs,
  claudeSession,
  runClaude,
  streamEvents,
  stripReminders,
  writeMcpConfig,
} from "./helpers/claude.js";
import {
  artifactTurns,
  expectLiteralRun,
  expectMarkerFound,
  expectNonzeroRun,
  expectOurToolsOffered,
  expectPageAfterHead,
  expectTruncatedBig,
} from "./helpers/core-session.js";
import { startMockAnthropic } from "./helpers/mock-anthropic.js";
import type { MockAnthropic } from "./helpers/mock-anthropic.js";
import {
  BIG_CALL,
  INVALID_TIMEOUT_CALL,
  LITERAL_CALL,
  LITERAL_STDOUT,
  NONZERO_CALL,
  SLOW_CALL,
  bigOutput,
  excerptHeadBytes,
} from "./helpers/programs.js";
import { runBounded } from "./helpers/run.js";
import type { ScriptedTurn, SeenResult } from "./helpers/script.js";
import { hostResources } from "./helpers/resources.js";
import { waitForNoProcesses } from "./helpers/server.js";
import { finalResults, type HostSession } from "./helpers/session.js";
import { expectYieldedThenCompleted } from "./helpers/yield-and-cut.js";

/** Claude Code's names for our tools. */
const PREFIX = "mcp__system-command__";

const resources = hostResources("claude");
const workspace = resources.workspace;
const home = resources.home;

async function mock(turns: ScriptedTurn[]): Promise<MockAnthropic> {
  return resources.afterTest(await startMockAnthropic(turns), (made) => made.close());
}

/**
 * The JSON the model was given for a call: Claude Code shows `JSON.stringify(structuredContent)`
 * and may append a `<system-reminder>` block to the last result; the rest must parse whole.
 */
function seenJson(result: SeenResult | undefined): Record<string, any> {
  expect(result, "no tool result reached the model").toBeDefined();
  expect(result?.isError).toBe(false);
  return JSON.parse(stripReminders(result?.text ?? "")) as Record<string, any>;
}

type Session = HostSession<MockAnthropic>;

describe("claude mcp add, as printed", () => {
  it("registers a server that connects, and a session with only the permission rule uses it", async () => {
    const space = workspace();
    const dir = home();
    const model = await mock([{ tool: "system_exec", args: () => LITERAL_CALL }]);
    // The printed snippet is a shell script: run it with the real `claude` first on PATH.
    const bin = join(dir.dir, "bin");
    mkdirSync(bin);
    symlinkSync(claudeBinary(), join(bin, "claude"));
    const env = claudeEnv(dir, model.origin);
    env.PATH = `${bin}:${env.PATH ?? ""}`;
    const snippet = renderHostConfig("claude-code", space.launch);
    const added = await runBounded("sh", ["-c", snippet], { env, cwd: dir.dir, timeoutMs: 60_000 });
    expect(added.code, added.stderr + added.stdout).toBe(0);

    const get = await runClaude(dir, model.origin, ["mcp", "get", "system-command"], 90_000);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toContain("Connected");
    expect(get.stdout).toContain(space.root);

    // No --mcp-config: the user-scope registration the printed line wrote is what runs.
    const run = await runClaude(dir, model.origin, [
      "--allowedTools",
      CLAUDE_CODE_PERMISSION_RULE,
      "--output-format",
      "stream-json",
      "--verbose",
      "--no-session-persistence",
      "-p",
      "run the scripted call",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(model.errors).toEqual([]);
    const init = streamEvents(run.stdout).find((event) => event.subtype === "init");
    expect(JSON.stringify(init?.mcp_servers), JSON.stringify(model.paths)).toEqual(
      JSON.stringify([{ name: "system-command", status: "connected", source: "user" }]),
    );
    const result = seenJson(finalResults(model)[0]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.text).toBe(LITERAL_STDOUT);
    expect(await waitForNoProcesses(space.root)).toEqual([]);
  });
});

describe("claude -p with the printed .mcp.json", () => {
  let main: Session;
  const big = bigOutput();

  beforeAll(async () => {
    main = await claudeSession(resources, [
      { tool: "system_exec", args: () => LITERAL_CALL },
      { tool: "system_exec", args: () => NONZERO_CALL },
      { tool: "system_exec", args: () => ({ program: "no-such-program" }) },
      { tool: "system_exec", args: () => INVALID_TIMEOUT_CALL },
      { tool: "system_exec", args: () => BIG_CALL },
      ...artifactTurns(4, (text) => JSON.parse(stripReminders(text)) as Record<string, any>),
    ]);
  }, 200_000);

  it("offers our tools directly (no ToolSearch step) and shows the model our instructions", () => {
    const first = main.model.requests[0];
    expectOurToolsOffered(first?.toolNames, PREFIX);
    // Claude Code puts server instructions in a system-reminder of the first user message.
    for (const line of SERVER_INSTRUCTION_LINES) expect(first?.context).toContain(line);
    const init = streamEvents(main.run.stdout).find((event) => event.subtype === "init");
    expect(init?.mcp_servers).toEqual([
      expect.objectContaining({ name: "system-command", status: "connected" }),
    ]);
  });

  it("shows the model the whole result of a literal-args run: exit 0 and its stdout", () => {
    const result = seenJson(finalResults(main.model)[0]);
    expectLiteralRun(result);
    expect(result.cwd).toBe(main.space.root);
  });

  it("reports a nonzero exit as a normal result", () => {
    expectNonzeroRun(seenJson(finalResults(main.model)[1]));
  });

  it("passes tool errors to the model as the coded text, flagged as errors", () => {
    const [unknown, timeout] = finalResults(main.model).slice(2, 4);
    expect(unknown?.isError).toBe(true);
    expect(stripReminders(unknown?.text ?? "")).toMatch(
      /^PROGRAM_NOT_REGISTERED: .*"no-such-program"/,
    );
    expect(timeout?.isError).toBe(true);
    expect(stripReminders(timeout?.text ?? "")).toMatch(/^INVALID_TIMEOUT: /);
  });

  it("keeps a truncated result whole, with its artifact id and outcome, and pages the rest", async () => {
    const seen = finalResults(main.model)[4];
    // Claude Code saves results over 50,000 characters to a file unless the tool raises the
    // limit; ours is well under it anyway, and must reach the model as complete JSON.
    expect(stripReminders(seen?.text ?? "").length).toBeLessThan(40_000);
    const result = seenJson(seen);
    expectTruncatedBig(result, big);
    expect(result.artifact.status).toBe("published");
    expect(result.artifact.id).toMatch(/^[0-9a-f]{32}$/);

    const head = excerptHeadBytes(result.stdout.text);
    expectPageAfterHead(big, head, seenJson(finalResults(main.model)[5]));
    expect(await waitForNoProcesses(main.space.root)).toEqual([]);
  });

  it("finds a line in the artifact with a system_output grep search", () => {
    expectMarkerFound(seenJson(finalResults(main.model)[6]));
  });
});

describe("the permission rule the snippet prints", () => {
  it("is what makes Claude Code run our tools: refused without it, run with it in settings.json", async () => {
    const space = workspace();
    const snippet = renderHostConfig("claude-code", space.launch);
    const rule = snippet.split("\n").find((line) => line.startsWith('# {"permissions"'));
    expect(rule).toBeDefined();

    const run = async (settings: string | undefined) => {
      const dir = home();
      const model = await mock([{ tool: "system_exec", args: () => LITERAL_CALL }]);
      if (settings !== undefined) {
        mkdirSync(join(dir.dir, ".claude"));
        writeFileSync(join(dir.dir, ".claude", "settings.json"), settings);
      }
      const config = writeMcpConfig(dir, snippet);
      const done = await runClaude(dir, model.origin, claudePrintArgs(config, undefined, "go"));
      expect(done.code, done.stderr).toBe(0);
      expect(model.errors).toEqual([]);
      return finalResults(model)[0];
    };

    const refused = await run(undefined);
    expect(refused?.isError).toBe(true);
    expect(refused?.text).toContain(`${PREFIX}system_exec`);
    expect(refused?.text).toMatch(/haven't granted it yet/);

    const allowed = seenJson(await run(rule?.replace(/^# /, "")));
    expect(allowed.stdout.text).toBe(LITERAL_STDOUT);
    expect(await waitForNoProcesses(space.root)).toEqual([]);
  });
});

describe("a call longer than Claude Code's tool timeout", () => {
  it("completes through the server's yield and system_wait", async () => {
    // MCP_TOOL_TIMEOUT makes Claude Code give up on a call after 6 s; the program runs 8 s and
    // the server (--yield-ms 1500) hands back a running handle long before that.
    const waitStep = (results: string[]) => {
      const handle = JSON.parse(stripReminders(results[0] ?? "")) as { executionId?: string };
      return { executionId: handle.executionId ?? "missing", waitMs: 2_500 };
    };
    const slow = await claudeSession(
      resources,
      [
        { tool: "system_exec", args: () => ({ ...SLOW_CALL, timeoutMs: 60_000 }) },
        ...Array.from({ length: 5 }, () => ({ tool: "system_wait", args: waitStep })),
      ],
      { flags: ["--yield-ms", "1500"], env: { MCP_TOOL_TIMEOUT: "6000" } },
    );
    const results = finalResults(slow.model).map((result) => seenJson(result));
    expect(results).toHaveLength(6);
    expectYieldedThenCompleted(results);
    expect(await waitForNoProcesses(slow.space.root)).toEqual([]);
  });
});
