// Fuzzed tool arguments through one real server (SPEC §3, §5, §17): thousands of arbitrary
// argument objects for every tool and for unknown tool names, then malformed JSON-RPC frames.
// Every call must be answered — a result, a coded tool error, or a JSON-RPC error where the
// request itself is not a valid tools/call — the server must survive, and stdout must carry only
// JSON-RPC lines.
//
// Reproduce a failure with FUZZ_SEED=<seed printed below> npx vitest run test/fuzz.e2e.test.ts.

import { mkdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../src/errors.js";
import { startRawServer, type RawServer } from "./helpers/raw-server.js";
import { configuredArgs, removeDir, tempDir } from "./helpers/server.js";

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20_240_917;
const TOOLS = [
  "system_environment",
  "system_output",
  "system_exec",
  "system_wait",
  "system_cancel",
];
const KNOWN_CODES = new Set<string>(ERROR_CODES);
/** Replaced at send time by an executionId the server really handed out (if any yet). */
const REAL_EXECUTION_ID = "@@REAL_EXECUTION_ID@@";
/** Replaced at send time by an artifact id the server really published (if any yet). */
const REAL_ARTIFACT_ID = "@@REAL_ARTIFACT_ID@@";

let dir: string;
let server: RawServer;
let nextId = 1;
const realExecutionIds: string[] = [];
const realArtifactIds: string[] = [];
const tally = { results: 0, toolErrors: 0, rpcErrors: 0, codes: new Map<string, number>() };

beforeAll(async () => {
  console.log(`fuzz seed: ${SEED} (set FUZZ_SEED to reproduce another run)`);
  dir = tempDir("scm-fuzz-");
  mkdirSync(path.join(dir, "sub"));
  // Only programs that cannot run long whatever their arguments: /bin/true and /bin/echo.
  const manifest = {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    programs: {
      true: {
        candidates: ["/bin/true"],
        policy: {
          maxTimeoutMs: 5000,
          allowStdin: true,
          allowBackground: true,
          maxBackgroundTimeoutMs: 5000,
          gracePeriodMs: 100,
          finalTerminationWaitMs: 500,
        },
      },
      echo: { candidates: ["/bin/echo"], policy: { maxTimeoutMs: 5000 } },
    },
  };
  server = startRawServer(configuredArgs(dir, manifest, ["--max-concurrent-executions", "8"]));
  await server.initialize();
});

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.stdin.end();
    const timer = setTimeout(() => server.child.kill("SIGKILL"), 5000);
    await server.exited;
    clearTimeout(timer);
  }
  removeDir(dir);
});

// ---------------------------------------------------------------------------------------------
// Arbitraries

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const specialChar = fc.constantFrom(
  "\u0000",
  "\u0001",
  "\u001b",
  "\u007f",
  "\n",
  "\r",
  "\t",
  "\u2028",
  "\ufeff",
  "\ufffd",
  "%",
  "!",
  "&",
  "|",
  "<",
  ">",
  "^",
  "$",
  "*",
  "'",
  '"',
  "\\",
  "/",
  "..",
  "🚀",
);
const weirdString = fc.string({
  unit: fc.oneof(
    specialChar,
    loneSurrogate,
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 24,
});
const weirdNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    1.5,
    -1.5,
    0.1,
    1e-7,
    1e21,
    1e308,
    -1e308,
    2 ** 31,
    2 ** 32 + 1,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    50_000,
    50_001,
    524_288,
    1_048_577,
    600_000,
    600_001,
    86_400_001,
  ),
  fc.integer(),
  fc.integer({ min: -5, max: 2000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  weirdString,
  weirdNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(weirdString, { maxLength: 4 }),
  fc.dictionary(weirdString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);
const hexId = fc.string({
  unit: fc.constantFrom(..."0123456789abcdef"),
  minLength: 32,
  maxLength: 32,
});
const idLike = fc.oneof(
  hexId,
  fc.constant(REAL_EXECUTION_ID),
  fc.constant(REAL_ARTIFACT_ID),
  fc.constantFrom("../../etc/passwd", "", "0".repeat(32), "F".repeat(32), "a".repeat(33)),
  weirdString,
  anyValue,
);
const smallMs = (max: number) => fc.oneof(fc.integer({ min: 0, max }), weirdNumber, anyValue);
const streamName = fc.oneof(fc.constantFrom("stdout", "stderr"), anyValue);
const unknownKeys = fc.dictionary(
  fc.oneof(weirdString, fc.constantFrom("shell", "env", "__proto__", "constructor", "PROGRAM")),
  anyValue,
  { maxKeys: 2 },
);

/** An argument object drawn from a tool's own fields (each optional), sometimes with extra keys. */
function fieldsOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const record = fc.record(fields, { requiredKeys: [] });
  return fc.oneof(
    { weight: 6, arbitrary: record },
    {
      weight: 1,
      arbitrary: fc.tuple(record, unknownKeys).map(([known, extra]) => ({ ...extra, ...known })),
    },
    { weight: 1, arbitrary: anyValue }, // not even an object, or random keys
  );
}

const execArgs = fieldsOf({
  program: fc.oneof(fc.constantFrom("true", "echo", "node", "sh", "", "TRUE", "true "), anyValue),
  args: fc.oneof(fc.array(weirdString, { maxLength: 8 }), anyValue),
  cwd: fc.oneof(fc.constantFrom(".", "/", "..", "sub", "/tmp", "\u0000"), anyValue),
  timeoutMs: fc.oneof(fc.integer({ min: 1, max: 5000 }), weirdNumber, anyValue),
  input: fc.oneof(weirdString, anyValue),
  yieldMs: smallMs(5000),
  background: fc.oneof(fc.boolean(), anyValue),
});
/** Calls that pass validation more often: real programs, sane fields, sometimes big output. */
const plausibleExecArgs = fc.record(
  {
    program: fc.constantFrom("true", "echo"),
    args: fc.oneof(
      fc.array(
        weirdString.filter((a) => !a.includes("\u0000")),
        { maxLength: 8 },
      ),
      fc.integer({ min: 30_000, max: 60_000 }).map((n) => ["y".repeat(n)]),
    ),
    cwd: fc.constantFrom(".", "sub"),
    timeoutMs: fc.integer({ min: 1, max: 5000 }),
    yieldMs: fc.integer({ min: 1, max: 5000 }),
    background: fc.boolean(),
  },
  { requiredKeys: ["program"] },
);
const plausibleOutputArgs = fc.record(
  {
    id: fc.constant(REAL_ARTIFACT_ID),
    stream: fc.constantFrom("stdout", "stderr"),
    offset: fc.oneof(fc.integer({ min: 0, max: 70_000 }), fc.constantFrom(0, 1)),
    limit: fc.integer({ min: 1, max: 2_000_000 }),
    encoding: fc.constantFrom("utf8", "base64"),
  },
  { requiredKeys: ["id", "stream", "offset"] },
);
const plausibleHandleArgs = fc.record(
  {
    executionId: fc.constant(REAL_EXECUTION_ID),
    waitMs: fc.integer({ min: 0, max: 200 }),
    until: fc.record(
      {
        pattern: fc.constantFrom("y", "^$", "(a|b)+", "["),
        stream: fc.constantFrom("stdout", "stderr"),
      },
      { requiredKeys: ["pattern"] },
    ),
  },
  { requiredKeys: ["executionId"] },
);

const outputArgs = fieldsOf({
  id: idLike,
  executionId: idLike,
  stream: streamName,
  offset: fc.oneof(fc.integer({ min: 0, max: 100 }), weirdNumber, anyValue),
  limit: fc.oneof(fc.integer({ min: 1, max: 2_000_000 }), weirdNumber, anyValue),
  encoding: fc.oneof(fc.constantFrom("utf8", "base64", "hex"), anyValue),
  waitMs: smallMs(200),
});
const waitArgs = fieldsOf({
  executionId: idLike,
  waitMs: smallMs(200),
  until: fc.oneof(
    fc.record(
      {
        pattern: fc.oneof(
          weirdString,
          fc.constantFrom("(", "a**", "\\", ".*", "x".repeat(300)),
          anyValue,
        ),
        stream: streamName,
        fromOffset: fc.oneof(fc.integer({ min: 0, max: 100 }), weirdNumber, anyValue),
      },
      { requiredKeys: [] },
    ),
    anyValue,
  ),
});
const cancelArgs = fieldsOf({ executionId: idLike, gracePeriodMs: smallMs(200) });
const environmentArgs = fc.oneof(fc.constant({}), unknownKeys, anyValue);

interface Call {
  name: unknown;
  arguments: unknown;
}

const call: fc.Arbitrary<Call> = fc.oneof(
  { weight: 6, arbitrary: execArgs.map((a) => ({ name: "system_exec", arguments: a })) },
  { weight: 3, arbitrary: plausibleExecArgs.map((a) => ({ name: "system_exec", arguments: a })) },
  {
    weight: 2,
    arbitrary: plausibleOutputArgs.map((a) => ({ name: "system_output", arguments: a })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom("system_wait", "system_output", "system_cancel"), plausibleHandleArgs)
      .map(([name, a]) => ({
        name,
        arguments:
          name === "system_wait"
            ? a
            : name === "system_output"
              ? { executionId: a.executionId, stream: "stdout", offset: 0, waitMs: a.waitMs }
              : { executionId: a.executionId, gracePeriodMs: a.waitMs },
      })),
  },
  { weight: 4, arbitrary: outputArgs.map((a) => ({ name: "system_output", arguments: a })) },
  { weight: 3, arbitrary: waitArgs.map((a) => ({ name: "system_wait", arguments: a })) },
  { weight: 3, arbitrary: cancelArgs.map((a) => ({ name: "system_cancel", arguments: a })) },
  {
    weight: 1,
    arbitrary: environmentArgs.map((a) => ({ name: "system_environment", arguments: a })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            "constructor",
            "__proto__",
            "toString",
            "hasOwnProperty",
            "system_Exec",
            "system_exec ",
            "",
            "system_environment\u0000",
          ),
          weirdString,
          anyValue,
        ),
        anyValue,
      )
      .map(([name, args]) => ({ name, arguments: args })),
  },
);

// ---------------------------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function withRealIds(value: unknown): unknown {
  if (value === REAL_EXECUTION_ID) return realExecutionIds.at(-1) ?? "0".repeat(32);
  if (value === REAL_ARTIFACT_ID) return realArtifactIds.at(-1) ?? "0".repeat(32);
  if (Array.isArray(value)) return value.map(withRealIds);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, { value: withRealIds(v), enumerable: true, writable: true });
    }
    return out;
  }
  return value;
}

/** Sends one tools/call and checks its answer; returns nothing, throws on a violation. */
async function callAndCheck(c: Call): Promise<void> {
  const id = nextId++;
  const params: Record<string, unknown> = { name: c.name };
  if (c.arguments !== undefined) params.arguments = withRealIds(c.arguments);
  const answer = server.response(id, 30_000);
  server.send({ jsonrpc: "2.0", id, method: "tools/call", params });
  const message = await answer;
  expect(message.jsonrpc).toBe("2.0");
  const knownTool = typeof c.name === "string" && TOOLS.includes(c.name);
  const validRequest = knownTool && (c.arguments === undefined || isObject(c.arguments));

  if ("error" in message) {
    tally.rpcErrors++;
    expect(Number.isInteger(message.error.code)).toBe(true);
    expect(typeof message.error.message).toBe("string");
    // A well-formed call of a real tool never becomes a JSON-RPC error.
    expect(validRequest, JSON.stringify(message.error)).toBe(false);
    // An unknown tool name in a well-formed request is -32602 (§3).
    if (
      typeof c.name === "string" &&
      !knownTool &&
      (c.arguments === undefined || isObject(c.arguments))
    ) {
      expect(message.error.code).toBe(-32602);
    }
    return;
  }
  const result = message.result;
  expect(knownTool).toBe(true);
  expect(Array.isArray(result.content)).toBe(true);
  if (result.isError) {
    tally.toolErrors++;
    expect(result.content).toHaveLength(1);
    expect(result.structuredContent).toBeUndefined();
    const text = result.content[0].text as string;
    const code = /^([A-Z_]+): \S/.exec(text)?.[1];
    expect(code, text).toBeDefined();
    expect(KNOWN_CODES.has(code!), text).toBe(true);
    tally.codes.set(code!, (tally.codes.get(code!) ?? 0) + 1);
    return;
  }
  tally.results++;
  expect(result.isError).toBe(false);
  expect(isObject(result.structuredContent)).toBe(true);
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  const executionId = result.structuredContent.executionId;
  if (typeof executionId === "string" && result.structuredContent.status === "running") {
    realExecutionIds.push(executionId);
  }
  const artifactId = result.structuredContent.artifact?.id;
  if (typeof artifactId === "string") realArtifactIds.push(artifactId);
}

function stdoutIsOnlyJsonRpc(): void {
  const bytes = server.stdoutBytes();
  const text = bytes.toString("utf8");
  expect(Buffer.from(text, "utf8").equals(bytes)).toBe(true); // valid UTF-8 throughout
  expect(text.endsWith("\n")).toBe(true);
  for (const line of text.slice(0, -1).split("\n")) {
    const message = JSON.parse(line);
    expect(message.jsonrpc).toBe("2.0");
  }
}

async function toolsList(): Promise<void> {
  const id = nextId++;
  const answer = server.response(id, 30_000);
  server.send({ jsonrpc: "2.0", id, method: "tools/list" });
  const message = await answer;
  expect(message.result.tools.map((t: { name: string }) => t.name)).toEqual(TOOLS);
}

/**
 * Batches of 1–10 calls: 600 of them make "thousands of cases" (§17). A fixed count, not a time
 * window: a window cut the runs short on a loaded machine and failed the counts below although
 * every call was answered correctly (the test's own timeout bounds it instead).
 */
const FUZZ_RUNS = 600;
/** "Thousands of cases" (§17). */
const MIN_FUZZ_CALLS = 2000;
/** The whole property, also on a loaded 2-core machine (about 5 s on an idle one). */
const FUZZ_TEST_TIMEOUT_MS = 300_000;

describe("fuzzed tool arguments (§17)", () => {
  it(
    "answers every call with a result, a coded tool error or a JSON-RPC error",
    async () => {
      const started = Date.now();
      let calls = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 10 }), async (batch) => {
          calls += batch.length;
          // Sent together: the server handles them concurrently.
          await Promise.all(batch.map(callAndCheck));
        }),
        { seed: SEED, numRuns: FUZZ_RUNS, endOnFailure: false },
      );
      console.log(
        `fuzz: ${calls} calls in ${Date.now() - started} ms — ${tally.results} results, ` +
          `${tally.toolErrors} tool errors, ${tally.rpcErrors} JSON-RPC errors, ` +
          `${realExecutionIds.length} running handles, ${realArtifactIds.length} artifacts; codes ` +
          JSON.stringify(Object.fromEntries([...tally.codes].sort())),
      );
      expect(calls).toBeGreaterThan(MIN_FUZZ_CALLS);
      expect(tally.results).toBeGreaterThan(500);
      expect(tally.codes.size).toBeGreaterThan(8);
      expect(realExecutionIds.length).toBeGreaterThan(0);
      expect(realArtifactIds.length).toBeGreaterThan(0);
      expect(server.child.exitCode).toBeNull();
      await toolsList();
      stdoutIsOnlyJsonRpc();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it("survives malformed JSON-RPC frames and still answers tools/list", async () => {
    const frames: (string | Buffer)[] = [
      "this is not json\n",
      "{\n",
      "\n",
      "\r\n",
      "[]\n",
      "{}\n",
      "null\n",
      "42\n",
      '"tools/list"\n',
      '{"jsonrpc":"2.0"}\n',
      '{"jsonrpc":"1.0","id":900001,"method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}\n',
      '{"jsonrpc":"2.0","id":900002,"method":"no/such/method"}\n',
      '{"jsonrpc":"2.0","id":900003,"method":"tools/call"}\n',
      '{"jsonrpc":"2.0","id":900004,"method":"tools/call","params":"x"}\n',
      '{"jsonrpc":"2.0","id":900005,"method":"tools/call","params":{"arguments":{}}}\n',
      '{"jsonrpc":"2.0","id":900006,"method":"tools/call","params":{"name":42}}\n',
      '{"jsonrpc":"2.0","id":900007,"result":{}}\n',
      '{"jsonrpc":"2.0","id":900008,"error":{"code":1,"message":"x"}}\n',
      '{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}\n',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999999}}\n',
      '{"jsonrpc":"2.0","id":900009,"method":"tools/list","params":[1,2]}\n',
      Buffer.from([0xff, 0xfe, 0x7b, 0x0a]),
      '{"jsonrpc":"2.0","id":900010,"method":"tools/list"\u0000}\n',
      "x".repeat(200_000) + "\n",
      `{"jsonrpc":"2.0","id":900011,"method":"tools/call","params":{"name":"system_exec","arguments":{"program":"true","args":["${"\\ud800"}"]}}}\n`,
    ];
    for (const frame of frames) server.child.stdin.write(frame);
    await toolsList();
    // One more real call after all that.
    const id = nextId++;
    const answer = server.response(id, 30_000);
    server.callTool(id, "system_exec", { program: "echo", args: ["still", "alive"] });
    const message = await answer;
    expect(message.result.structuredContent.stdout.text).toBe("still alive\n");
    expect(server.child.exitCode).toBeNull();
    stdoutIsOnlyJsonRpc();
  });
});
