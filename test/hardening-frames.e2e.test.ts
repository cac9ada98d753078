// Malformed JSON-RPC requests that carry a valid id get an error reply carrying that id (#14),
// instead of being dropped while the client waits for its own timeout.

import { describe, expect, it } from "vitest";
import { shareRawServer, type RawServer } from "./helpers/raw-server.js";
import { eventually } from "./helpers/server.js";

let server: RawServer;

shareRawServer((started) => (server = started));

/** The parsed stdout message answering `id` (string ids too), waiting up to 10 s. */
async function answerTo(id: string | number): Promise<any> {
  const find = () =>
    server.lines
      .map((line) => JSON.parse(line))
      .find((message) => message.id === id && ("result" in message || "error" in message));
  expect(await eventually(() => find() !== undefined, 10_000)).toBe(true);
  return find();
}

function sendText(text: string): void {
  server.child.stdin.write(text + "\n");
}

describe("malformed requests with a valid id", () => {
  const invalidParams: [string, unknown][] = [
    ["a string", "name"],
    ["an array", [1, 2]],
    ["a number", 5],
    ["null", null],
  ];
  for (const [what, params] of invalidParams) {
    it(`answers params that is ${what} with -32602 and the id`, async () => {
      const id = `params-${what}`;
      server.send({ jsonrpc: "2.0", id, method: "tools/call", params });
      const answer = await answerTo(id);
      expect(answer).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32602 } });
      expect(answer.error.message).toMatch(/params/);
    });
  }

  const invalidRequests: [string, object][] = [
    ["a number method", { jsonrpc: "2.0", id: 101, method: 5 }],
    ["a null method", { jsonrpc: "2.0", id: 102, method: null }],
    ["no method", { jsonrpc: "2.0", id: 103, params: {} }],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 104, method: "ping" }],
    ["an unknown top-level key", { jsonrpc: "2.0", id: 105, method: "ping", extra: 1 }],
  ];
  for (const [what, frame] of invalidRequests) {
    it(`answers a request with ${what} with -32600 and the id`, async () => {
      server.send(frame);
      const id = (frame as { id: number }).id;
      expect(await answerTo(id)).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
    });
  }

  it("ignores malformed notifications, unparsable lines and responses, and keeps serving", async () => {
    const before = server.lines.length;
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: "x" });
    sendText("{not json");
    sendText('"just a string"');
    server.send({ jsonrpc: "2.0", id: 900, result: "a response with a result that is no object" });
    server.send({ jsonrpc: "2.0", id: 901, method: "ping" });
    expect(await answerTo(901)).toMatchObject({ id: 901, result: {} });
    const extra = server.lines.slice(before).map((line) => JSON.parse(line));
    expect(extra).toEqual([{ jsonrpc: "2.0", id: 901, result: {} }]);
  });

  it("writes only JSON-RPC lines on stdout", () => {
    for (const line of server.lines) {
      const message = JSON.parse(line);
      expect(message.jsonrpc).toBe("2.0");
    }
    expect(server.stdoutBytes().toString("utf8").endsWith("\n")).toBe(true);
  });
});
