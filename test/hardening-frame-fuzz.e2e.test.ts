// Property-based fuzz of whole JSON-RPC frames (#14, §17): ids, methods, params shapes, extra
// keys and sizes. Every request with a usable id is answered exactly once with that id, nothing
// else is answered, no response line reaches 8 MiB, stdout holds only JSON-RPC lines, and the
// server never crashes. Bounded in time (the suite runs on 2 cores).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shareRawServer, type RawServer } from "./helpers/raw-server.js";
import { eventually } from "./helpers/server.js";

const SEED = 0x5eed14;
const RUNS = 250;
const TIME_BUDGET_MS = 20_000;
const MAX_LINE_BYTES = 8 * 1024 * 1024;

let server: RawServer;

shareRawServer((started) => (server = started));

let counter = 0;
/** Ids of each kind, made unique per frame so that answers can be matched. */
const idKind = fc.constantFrom("int", "string", "float", "null", "object", "absent", "huge");
function makeId(kind: string): unknown {
  counter += 1;
  switch (kind) {
    case "int":
      return 1_000_000 + counter;
    case "string":
      return `fz-${counter}`;
    case "float":
      return counter + 0.5;
    case "null":
      return null;
    case "object":
      return { n: counter };
    case "huge":
      return `fz-${counter}-${'\\"'.repeat(200_000)}`;
    default:
      return undefined;
  }
}

const method = fc.oneof(
  fc.constantFrom("ping", "tools/list", "tools/call", "nope/nothing", "", "notifications/x"),
  fc.constantFrom(5, null, true, ["ping"], { m: 1 }),
);
const params = fc.oneof(
  fc.constant(undefined),
  fc.constant({}),
  fc.constantFrom("str", 7, null, [1, 2], true),
  fc.record({ name: fc.constantFrom("system_environment", "nope", 5, '"'.repeat(300_000)) }),
  fc.record({ name: fc.constant("system_environment"), arguments: fc.constantFrom({}, [], "x") }),
  fc.integer({ min: 0, max: 1_500_000 }).map((n) => ({ _pad: "x".repeat(n) })),
);
const frame = fc.record({
  idKind,
  method,
  params,
  jsonrpc: fc.constantFrom("2.0", "2.0", "2.0", "1.0", undefined),
  extraKey: fc.boolean(),
});

function usableId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

const parsed: any[] = [];
/** Every stdout message so far, each line parsed once. */
function messages(): any[] {
  for (let i = parsed.length; i < server.lines.length; i += 1)
    parsed.push(JSON.parse(server.lines[i]!));
  return parsed;
}

function answered(id: unknown): unknown[] {
  return messages().filter(
    (message) => message.id === id && ("result" in message || "error" in message),
  );
}

describe("fuzzed JSON-RPC frames", () => {
  it("answers every request with a usable id once, ignores the rest, never crashes", async () => {
    const started = Date.now();
    const unanswerable: unknown[] = [];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(frame, async (f) => {
        if (Date.now() - started > TIME_BUDGET_MS) return; // bounded: later runs are skipped
        runs += 1;
        const id = makeId(f.idKind);
        const message: Record<string, unknown> = {};
        if (f.jsonrpc !== undefined) message.jsonrpc = f.jsonrpc;
        if (f.idKind !== "absent") message.id = id;
        message.method = f.method;
        if (f.params !== undefined) message.params = f.params;
        if (f.extraKey) message.extra = 1;
        server.child.stdin.write(JSON.stringify(message) + "\n");
        // A sentinel ping: once it is answered, the frame before it has been read.
        const sentinel = 9_000_000 + counter;
        server.send({ jsonrpc: "2.0", id: sentinel, method: "ping" });
        await server.response(sentinel, 10_000);
        if (usableId(id) && f.idKind !== "absent") {
          expect(await eventually(() => answered(id).length > 0, 10_000)).toBe(true);
          expect(answered(id)).toHaveLength(1);
        } else {
          unanswerable.push(id);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(runs).toBeGreaterThan(50);
    // Frames without a usable id got no answer (ids null/object/absent never appear on stdout).
    const stray = messages().filter(
      (m) => m.id === null || (typeof m.id === "object" && m.id !== undefined),
    );
    expect(stray).toEqual([]);
    expect(unanswerable.length).toBeGreaterThan(0);
    for (const line of server.lines) expect(Buffer.byteLength(line)).toBeLessThan(MAX_LINE_BYTES);
    for (const message of messages()) expect(message.jsonrpc).toBe("2.0");
    expect(server.stdoutBytes().toString("utf8").endsWith("\n")).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).not.toMatch(/Uncaught|TypeError|RangeError/);
  }, 60_000);

  it("skips a frame longer than 10 MiB and keeps serving", async () => {
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 77_777,
      method: "ping",
      params: { _pad: "y".repeat(11 * 1024 * 1024) },
    });
    server.child.stdin.write(big + "\n");
    server.send({ jsonrpc: "2.0", id: 77_778, method: "ping" });
    expect(await server.response(77_778, 20_000)).toMatchObject({ result: {} });
    expect(answered(77_777)).toEqual([]);
    expect(server.stderr()).toMatch(/skipped a frame of \d+ bytes/);
  }, 60_000);
});
