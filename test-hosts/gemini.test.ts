// The real Gemini CLI (test-hosts/package.json) with the JSON `print-config gemini` prints, in
// `~/.gemini/settings.json` with the `trust` its note asks for: headless `gemini -p` sessions
// against a loopback mock of the Gemini API drive our tools end to end. The mock records the
// function responses Gemini CLI sends back: what the model really saw.

import { beforeAll, describe, expect, it } from "vitest";

import { SERVER_INSTRUCTION_LINES } from "../src/hosts/guidance.js";
import { hostConfigNotes } from "../src/hosts/index.js";
import {
  artifactTurns,
  expectLiteralRun,
  expectMarkerFound,
  expectNonzeroRun,
  expectOurToolsOffered,
  expectPageAfterHead,
  expectTruncatedBig,
} from "./helpers/core-session.js";
import { geminiSession } from "./helpers/gemini.js";
import type { MockGemini } from "./helpers/mock-gemini.js";
import {
  BIG_CALL,
  INVALID_TIMEOUT_CALL,
  LITERAL_CALL,
  LITERAL_STDOUT,
  NONZERO_CALL,
  NONZERO_EXIT_CODE,
  bigOutput,
  excerptHeadBytes,
} from "./helpers/programs.js";
import {
  expectYieldedThenCompleted,
  YIELD_AND_CUT_OPTIONS,
  YIELD_AND_CUT_TURNS,
} from "./helpers/yield-and-cut.js";
import { jsonIn } from "./helpers/script.js";
import type { SeenResult } from "./helpers/script.js";
import { hostResources } from "./helpers/resources.js";
import { waitForNoProcesses } from "./helpers/server.js";
import { finalResults, type HostSession } from "./helpers/session.js";

/** Gemini CLI's names for our tools: `mcp_<server>_<tool>`. */
const PREFIX = "mcp_system-command_";

/** Gemini CLI's own cut of a long text block (HOSTS.md). */
const GEMINI_CUT_MARKER = /Output too large\. Showing first 8,000 and last 32,000 characters/;
const GEMINI_CUT_CHARS = 40_000;

const resources = hostResources("gemini");

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

type Session = HostSession<MockGemini>;

describe("gemini -p with the printed settings entry", () => {
  let main: Session;
  const big = bigOutput();

  beforeAll(async () => {
    main = await geminiSession(resources, [
      { tool: "system_exec", args: () => LITERAL_CALL },
      { tool: "system_exec", args: () => NONZERO_CALL },
      { tool: "system_exec", args: () => INVALID_TIMEOUT_CALL },
      { tool: "system_exec", args: () => BIG_CALL },
      ...artifactTurns(3, jsonIn),
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
    expectOurToolsOffered(first?.toolNames, PREFIX);
    for (const line of SERVER_INSTRUCTION_LINES) expect(first?.context).toContain(line);
  });

  it("shows the model the whole result of a literal-args run: exit 0 and its stdout", () => {
    expectLiteralRun(seenJson(finalResults(main.model)[0]));
  });

  it("reports a nonzero exit as a normal result", () => {
    expectNonzeroRun(seenJson(finalResults(main.model)[1]));
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
    expectTruncatedBig(result, big);
    expect(result.artifact).toMatchObject({
      status: "published",
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it("pages the omitted bytes with a default-size system_output page", () => {
    const result = jsonIn(finalResults(main.model)[3]?.text ?? "");
    const head = excerptHeadBytes(result.stdout.text);
    expectPageAfterHead(big, head, seenJson(finalResults(main.model)[4]));
  });

  it("finds a line in the artifact with a system_output grep search", () => {
    expectMarkerFound(seenJson(finalResults(main.model)[5]));
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
    const untrusted = await geminiSession(
      resources,
      [{ tool: "system_exec", args: () => LITERAL_CALL }],
      {
        entryChanges: { trust: undefined },
      },
    );
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
    slow = await geminiSession(resources, YIELD_AND_CUT_TURNS, YIELD_AND_CUT_OPTIONS);
  }, 200_000);

  it("completes through the server's yield and system_wait", () => {
    expectYieldedThenCompleted(finalResults(slow.model).slice(0, 6).map(seenJson));
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
