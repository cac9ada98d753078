// The 120 s limit of an approval elicitation (SPEC §21): a real SDK server and client over an
// in-memory transport, the client declaring elicitation and never answering; fake timers move the
// clock, so the real code path (src/mcp/elicitation.ts and the SDK's request timeout) is what is
// tested without 120 s of wall time.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callerOf } from "../src/mcp/elicitation.js";
import type { ElicitationAnswer } from "../src/policy/gate.js";

/** SPEC §21: "timeout after 120 s". */
const SPEC_TIMEOUT_MS = 120_000;

async function silentClientPair() {
  const server = new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } });
  const client = new Client(
    { name: "never-answers", version: "0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  let asked = 0;
  client.setRequestHandler(ElicitRequestSchema, () => {
    asked += 1;
    return new Promise(() => {}); // the human never answers
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
  return { server, client, asked: () => asked };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("an approval elicitation nobody answers", () => {
  it("ends as a timeout after exactly 120 s, not before", async () => {
    const pair = await silentClientPair();
    vi.useFakeTimers();
    try {
      const caller = callerOf(pair.server, new AbortController().signal);
      expect(caller.ask).toBeDefined();
      let answer: ElicitationAnswer | undefined;
      const asking = caller.ask!({
        program: "git",
        args: ["push"],
        cwd: "/w",
        reason: "r",
        rule: 0,
      });
      void asking.then((value) => (answer = value));
      await vi.advanceTimersByTimeAsync(SPEC_TIMEOUT_MS - 1);
      expect(pair.asked()).toBe(1);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await expect(asking).resolves.toBe("timeout");
    } finally {
      vi.useRealTimers();
      await pair.client.close();
      await pair.server.close();
    }
  });

  it("ends as a cancel when the tool call is cancelled while waiting", async () => {
    const pair = await silentClientPair();
    try {
      const abort = new AbortController();
      const caller = callerOf(pair.server, abort.signal);
      const asking = caller.ask!({
        program: "git",
        args: ["push"],
        cwd: "/w",
        reason: "r",
        rule: 0,
      });
      abort.abort();
      await expect(asking).resolves.toBe("cancel");
    } finally {
      await pair.client.close();
      await pair.server.close();
    }
  });
});
