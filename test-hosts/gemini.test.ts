// The real Gemini CLI (test-hosts/package.json) with the JSON `print-config gemini` prints, in
// `~/.gemini/settings.json` with the `trust` its note asks for: headless `gemini -p` sessions
// against a loopback mock of the Gemini API drive our tools end to end. The mock records the
// function responses Gemini CLI sends back: what the model really saw.

import { beforeAll, describe, expect, it } from "vitest";

import { SERVER_INSTRUCTION_LINES } from "../src/hosts/guidance.js";
import { hostConfigNotes, renderHostConfig } from "../src/hosts/index.js";
import { geminiPrintArgs, runGemini, writeGeminiSettings } from "./helpers/gemini.js";
import { startMockGemini } from "./helpers/mock-gemini.js";
import type { MockGemini } from "./helpers/mock-gemini.js";
import {
  BIG_CALL,
  INVALID_TIMEOUT_CALL,
  LITERAL_CALL,
  LITERAL_STDOUT,
  MARKER_LINE,
  MARKER_TEXT,
  NONZERO_CALL,
  NONZERO_EXIT_CODE,
  SLOW_MS,
  SLOW_STDOUT,
  bigOutput,
  excerptHeadBytes,
  markerOffset,
} from "./helpers/programs.js";
import type { RunResult } from "./helpers/run.js";
import { YIELD_AND_CUT_OPTIONS, YIELD_AND_CUT_TURNS } from "./helpers/yield-and-cut.js";
import { jsonIn } from "./helpers/script.js";
import type { ScriptedTurn, SeenResult } from "./helpers/script.js";
import { hostResources } from "./helpers/resources.js";
import { waitForNoProcesses } from "./helpers/server.js";
import type { Workspace } from "./helpers/server.js";

/** Gemini CLI's names for our tools: `mcp_<server>_<tool>`. */
const PREFIX = "mcp_system-command_";
const OUR_TOOLS = ["system_environment", "system_output", "system_exec", "system_wait"];

/** Gemini CLI's own cut of a long text block (HOSTS.md). */
const GEMINI_CUT_MARKER = /Output too large\. Showing first 8,000 and last 32,000 characters/;
const GEMINI_CUT_CHARS = 40_000;

const resources = hostResources("gemini");
const workspace = resources.workspace;
const home = resources.home;

/** Gemini shows the model our text block, wrapped in `<untrusted_context>`; it must parse. */
function seenJson(result: SeenResult | undefined): Record<string, any> {
  expect(result, "no function response reached the model").toBeDefined();
  expect(result?.isError).toBe(false);
  const text = result?.text ?? "";
  expect(text).toMatch(/^<untrusted_context>\n\{[\s\S]*\}\n<\/untrusted_context>$/);
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Record<
    string,
    any
  >;
}

/** The results the model saw by the end of a session (the last request holds them all). */
function finalResults(model: MockGemini): SeenResult[] {
  return model.requests.at(-1)?.results ?? [];
}

interface Session {
  run: RunResult;
  model: MockGemini;
  space: Workspace;
}

/** One `gemini -p` session with the printed entry (plus `entryChanges`) in settings.json. */
async function session(
  turns: ScriptedTurn[],
  options: { flags?: string[]; entryChanges?: Record<string, unknown> } = {},
): Promise<Session> {
  const space = workspace(options.flags);
  const model = resources.afterTest(await startMockGemini(turns), (made) => made.close());
  const dir = home();
  writeGeminiSettings(dir, renderHostConfig("gemini", space.launch), {
    trust: true,
    ...options.entryChanges,
  });
  const run = await runGemini(dir, model.origin, geminiPrintArgs("run the scripted calls"));
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  expect(model.errors).toEqual([]);
  return { run, model, space };
}

describe("gemini -p with the printed settings entry", () => {
  let main: Session;
  const big = bigOutput();
  const artifactOf = (text: string): string => jsonIn(text).artifact.id;

  beforeAll(async () => {
    main = await session([
      { tool: "system_exec", args: () => LITERAL_CALL },
      { tool: "system_exec", args: () => NONZERO_CALL },
      { tool: "system_exec", args: () => INVALID_TIMEOUT_CALL },
      { tool: "system_exec", args: () => BIG_CALL },
      {
        tool: "system_output",
        args: (results) => {
          const seen = jsonIn(results[3] ?? "");
          return {
            id: seen.artifact.id,
            stream: "stdout",
            offset: excerptHeadBytes(seen.stdout.text),
          };
        },
      },
      {
        tool: "system_output",
        args: (results) => ({
          id: artifactOf(results[3] ?? ""),
          stream: "stdout",
          offset: 0,
          grep: { pattern: "^FAILED " },
        }),
      },
      // Gemini's scheduling hint on calls the model makes in one turn.
      [
        { tool: "system_exec", args: () => ({ ...LITERAL_CALL, wait_for_previous: false }) },
        { tool: "system_exec", args: () => ({ ...NONZERO_CALL, wait_for_previous: true }) },
        { tool: "system_environment", args: () => ({ wait_for_previous: true }) },
      ],
    ]);
  }, 200_000);

  it("offers our tools as mcp_system-command_<tool> and shows the model our instructions", () => {
    const first = main.model.requests[0];
    for (const tool of OUR_TOOLS) expect(first?.toolNames).toContain(`${PREFIX}${tool}`);
    for (const line of SERVER_INSTRUCTION_LINES) expect(first?.context).toContain(line);
  });

  it("shows the model the whole result of a literal-args run: exit 0 and its stdout", () => {
    const result = seenJson(finalResults(main.model)[0]);
    expect(result.status).toBe("completed");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.text).toBe(LITERAL_STDOUT);
  });

  it("reports a nonzero exit as a normal result", () => {
    const result = seenJson(finalResults(main.model)[1]);
    expect(result.exitCode).toBe(NONZERO_EXIT_CODE);
    expect(result.stderr.text).toBe("failing on purpose");
  });

  it("passes a tool error to the model as the coded text, flagged as an error", () => {
    const error = finalResults(main.model)[2];
    expect(error?.isError).toBe(true);
    // Gemini wraps it in its own sentence; our coded message is inside, whole.
    expect(error?.text).toMatch(/INVALID_TIMEOUT: timeoutMs must be an integer from 1 to 600000/);
  });

  it("keeps a truncated result under Gemini's cut, with its artifact id", () => {
    const seen = finalResults(main.model)[3];
    expect(seen?.text.length).toBeLessThan(GEMINI_CUT_CHARS);
    expect(seen?.text).not.toMatch(GEMINI_CUT_MARKER);
    const result = seenJson(seen);
    expect(result).toMatchObject({ status: "completed", exitCode: 0, timedOut: false });
    expect(result.stdout.truncated).toBe(true);
    expect(result.stdout.totalBytes).toBe(Buffer.byteLength(big));
    expect(result.artifact).toMatchObject({
      status: "published",
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("pages the omitted bytes with a default-size system_output page", () => {
    const result = jsonIn(finalResults(main.model)[3]?.text ?? "");
    const head = excerptHeadBytes(result.stdout.text);
    const page = seenJson(finalResults(main.model)[4]);
    expect(page.offset).toBe(head);
    expect(page.bytes).toBeGreaterThan(0);
    expect(page.text).toBe(big.slice(head, head + page.bytes));
    expect(page.nextOffset).toBe(head + page.bytes);
  });

  it("finds a line in the artifact with a system_output grep search", () => {
    const found = seenJson(finalResults(main.model)[5]);
    expect(found.matches).toEqual([
      { offset: markerOffset(), line: MARKER_LINE, text: MARKER_TEXT },
    ]);
    expect(found.truncated).toBe(false);
    expect(found.eof).toBe(true);
  });

  it("runs calls that set wait_for_previous (Gemini adds it to every tool's schema)", async () => {
    const declared = main.model.requests[0]?.tools.find(
      (tool) => tool.name === `${PREFIX}system_exec`,
    );
    const schema = declared?.parametersJsonSchema ?? declared?.parameters;
    expect(schema?.properties?.wait_for_previous?.type).toBe("boolean");
    // The three calls of the last turn reached the server with the hint and succeeded.
    const calls = main.model.requests.at(-1)?.calls.slice(-3) ?? [];
    expect(calls.map((call) => call.args.wait_for_previous)).toEqual([false, true, true]);
    const [literal, nonzero, environment] = finalResults(main.model).slice(-3).map(seenJson);
    expect(literal?.stdout.text).toBe(LITERAL_STDOUT);
    expect(nonzero?.exitCode).toBe(NONZERO_EXIT_CODE);
    expect(environment?.roots).toEqual([main.space.root]);
    expect(await waitForNoProcesses(main.space.root)).toEqual([]);
  });
});

describe("what print-config's notes say Gemini needs", () => {
  it('offers no tool of the server in a headless run without "trust": true', async () => {
    expect(hostConfigNotes("gemini").join("\n")).toContain('"trust": true');
    const untrusted = await session([{ tool: "system_exec", args: () => LITERAL_CALL }], {
      entryChanges: { trust: undefined },
    });
    // No request offered our tools, so the script never ran.
    expect(untrusted.model.requests).toEqual([]);
    expect(untrusted.model.paths.length).toBeGreaterThan(0);
    expect(await waitForNoProcesses(untrusted.space.root)).toEqual([]);
  });
});

describe("a call longer than Gemini's per-server timeout, and Gemini's own cut", () => {
  let slow: Session;
  const big = bigOutput();

  beforeAll(async () => {
    slow = await session(YIELD_AND_CUT_TURNS, YIELD_AND_CUT_OPTIONS);
  }, 200_000);

  it("completes through the server's yield and system_wait", () => {
    const results = finalResults(slow.model).slice(0, 6).map(seenJson);
    expect(results[0]?.status).toBe("running");
    // How many waits see it still running depends on the host's own pace; the handle came first.
    expect(results[0]?.elapsedMs).toBeLessThan(SLOW_MS);
    const last = results.at(-1)!;
    expect(last.status).toBe("completed");
    expect(last.executionId).toBe(results[0]?.executionId);
    expect(last.exitCode).toBe(0);
    expect(last.stdout.text).toBe(SLOW_STDOUT);
  });

  it("keeps the outcome and artifact id visible when Gemini cuts a long result", () => {
    const seen = finalResults(slow.model)[6];
    expect(seen?.isError).toBe(false);
    expect(seen?.text).toMatch(GEMINI_CUT_MARKER);
    // The middle is gone (the JSON no longer parses), but the fields an agent acts on come
    // first (SPEC §7), so they are in the 8,000 characters Gemini keeps from the top.
    const text = seen?.text ?? "";
    expect(() => JSON.parse(text.slice(text.indexOf("{")))).toThrow();
    const kept = text.slice(0, text.search(/\n\.\.\. \[[0-9,]+ characters omitted\] \.\.\.\n/));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toMatch(/"status":"completed"/);
    expect(kept).toMatch(/"exitCode":0/);
    expect(kept).toMatch(/"artifact":\{"status":"published","id":"[0-9a-f]{32}"/);
    const page = seenJson(finalResults(slow.model)[7]);
    expect(page.offset).toBe(0);
    expect(page.text).toBe(big.slice(0, page.bytes));
  });
});
