// A pathological RE2 pattern (linear, but thousands of NFA states per byte) must never hold up
// the server: other executions' timeouts (§6.3) and pings are served while it is matched (#14).

import { describe, expect, it } from "vitest";
import { errorText, shareServer, waitForLine, type TestServer } from "./helpers/server.js";

/** 20 characters of valid RE2 whose match costs tens of microseconds per byte in re2js. */
const COSTLY_PATTERN = "(?i)(\\pL|\\pN){1000}b";
const OUTPUT_BYTES = 512 * 1024;
const LINE_BYTES = 4096;
/** §6.3: timeoutMs + gracePeriodMs (2000) + finalTerminationWaitMs (5000) + 1 s. */
const SLEEP_TIMEOUT_MS = 1000;
const SLEEP_RETURN_BOUND_MS = SLEEP_TIMEOUT_MS + 2000 + 5000 + 1000;
const WAIT_MS = 1000;
/** Slack for a loaded 2-core machine on top of waitMs; far below the unbounded scan's ~30 s. */
const WAIT_SLACK_MS = 3000;
/** No SPEC number for pings: generous for a loaded machine, far below the unbounded ~30 s. */
const PING_BOUND_MS = 5000;

let server: TestServer;

shareServer(
  {
    version: 2,
    programs: {
      node: { candidates: [process.execPath], policy: { allowBackground: true } },
      sleep: { candidates: ["/bin/sleep", "/usr/bin/sleep"] },
    },
  },
  [],
  (started) => (server = started),
);

/** Prints 512 KiB of letter lines (no "b", so nothing matches), READY, then idles for a minute. */
const WRITER = `
const line = "a".repeat(${LINE_BYTES - 1}) + "\\n";
process.stdout.write(line.repeat(${OUTPUT_BYTES / LINE_BYTES}) + "READY\\n");
setTimeout(() => {}, 60000);
`;

async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await promise;
  return { value, ms: Date.now() - start };
}

describe("bounded pattern matching", () => {
  it("serves a concurrent timeout and a ping while a costly until pattern scans 512 KiB", async () => {
    const handle = await server.exec({ program: "node", args: ["-e", WRITER], background: true });
    try {
      const ready = await waitForLine(server, handle.executionId, "^READY$", {
        stream: "stdout",
        waitMs: 30_000,
      });
      expect(ready.text).toBe("READY");

      const sleeper = timed(
        server.exec({ program: "sleep", args: ["30"], timeoutMs: SLEEP_TIMEOUT_MS }),
      );
      const waiter = timed(
        server.call("system_wait", {
          executionId: handle.executionId,
          waitMs: WAIT_MS,
          until: { pattern: COSTLY_PATTERN, stream: "stdout" },
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ping = await timed(server.client.ping());

      const waited = await waiter;
      expect(waited.value.isError).toBeFalsy();
      expect((waited.value.structuredContent as any).status).toBe("running");
      expect((waited.value.structuredContent as any).match).toBeUndefined();
      expect(waited.ms).toBeLessThan(WAIT_MS + WAIT_SLACK_MS);

      const slept = await sleeper;
      expect(slept.value.timedOut).toBe(true);
      expect(slept.ms).toBeLessThan(SLEEP_RETURN_BOUND_MS);
      expect(ping.ms).toBeLessThan(PING_BOUND_MS);
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId, gracePeriodMs: 0 });
    }
  }, 120_000);

  it("serves a ping while a costly grep pattern scans 512 KiB, within the 2 s scan budget", async () => {
    const handle = await server.exec({ program: "node", args: ["-e", WRITER], background: true });
    try {
      const ready = await waitForLine(server, handle.executionId, "^READY$", {
        stream: "stdout",
        waitMs: 30_000,
      });
      expect(ready.text).toBe("READY");
      const grep = timed(
        server.call("system_output", {
          executionId: handle.executionId,
          stream: "stdout",
          offset: 0,
          grep: { pattern: COSTLY_PATTERN },
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ping = await timed(server.client.ping());
      const scanned = await grep;
      expect(
        scanned.value.isError,
        JSON.stringify(scanned.value.content).slice(0, 300),
      ).toBeFalsy();
      expect((scanned.value.structuredContent as any).matches).toEqual([]);
      // §3.3: one call scans at most 2 s (then scanLimited); slack for a loaded machine.
      expect(scanned.ms).toBeLessThan(2000 + WAIT_SLACK_MS);
      expect(ping.ms).toBeLessThan(PING_BOUND_MS);
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId, gracePeriodMs: 0 });
    }
  }, 120_000);

  it("still finds a match of a costly pattern within its line bound", async () => {
    // 603 instructions: lines are matched on their first 1 Mi / 603 = 1738 bytes.
    const script = `process.stdout.write("x".repeat(1500) + "b\\n"); setTimeout(() => {}, 60000);`;
    const handle = await server.exec({ program: "node", args: ["-e", script], background: true });
    try {
      const result = await server.call("system_wait", {
        executionId: handle.executionId,
        waitMs: 20_000,
        until: { pattern: "(?i)(\\pL|\\pN){200}b" },
      });
      expect((result.structuredContent as any).match?.offset).toBe(0);
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId, gracePeriodMs: 0 });
    }
  }, 60_000);

  it("refuses a pattern whose compiled program is too large with INVALID_PATTERN", async () => {
    const handle = await server.exec({
      program: "node",
      args: ["-e", "setTimeout(() => {}, 60000)"],
      background: true,
    });
    try {
      const result = await server.call("system_wait", {
        executionId: handle.executionId,
        waitMs: 0,
        until: { pattern: "(?i)(\\pL|\\pN){1000}".repeat(4) },
      });
      expect(errorText(result)).toMatch(/^INVALID_PATTERN: .*instructions/);
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId, gracePeriodMs: 0 });
    }
  });
});
