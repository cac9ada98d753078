// system_wait's until.fromOffset (SPEC §19): the line search starts at that byte offset, so a line
// before it never matches — the second of two matching lines is found, and nothing past the last
// one. Pins runtime.ts's use of fromOffset (issue 24 mutant: only the fuzz test passed it).

import { describe, expect, it } from "vitest";
import { backgroundNodeManifest, shareServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
shareServer(backgroundNodeManifest(), [], (started) => (server = started));

const FIRST = "mark one\n";
const SECOND = "mark two\n";
/** Writes both lines at once, then stays running until cancelled. */
const SCRIPT = `process.stdout.write(${JSON.stringify(FIRST + SECOND)}); setTimeout(() => {}, 60000);`;

async function until(executionId: string, pattern: string, fromOffset?: number, waitMs = 20_000) {
  const result = await server.call("system_wait", {
    executionId,
    waitMs,
    until: { pattern, stream: "stdout", ...(fromOffset !== undefined && { fromOffset }) },
  });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, any>;
}

describe("until.fromOffset", () => {
  it("skips the lines before the offset", async () => {
    const handle = await server.exec({ program: "node", args: ["-e", SCRIPT], background: true });
    expect(handle.status).toBe("running");
    const id = handle.executionId as string;
    try {
      // Both lines are out once the second one matches.
      expect((await until(id, "two")).match).toEqual({
        stream: "stdout",
        offset: FIRST.length,
        text: "mark two",
      });
      expect((await until(id, "mark")).match?.offset).toBe(0);
      expect((await until(id, "mark", 0)).match?.offset).toBe(0);
      expect((await until(id, "mark", FIRST.length)).match).toEqual({
        stream: "stdout",
        offset: FIRST.length,
        text: "mark two",
      });
      // From the middle of the first line: its rest ("one") is not a line of its own that matches "mark".
      expect((await until(id, "mark", 3)).match?.offset).toBe(FIRST.length);
      const past = await until(id, "mark", FIRST.length + SECOND.length, 300);
      expect(past.status).toBe("running");
      expect(past.match).toBeUndefined();
    } finally {
      await server.call("system_cancel", { executionId: id, gracePeriodMs: 0 });
    }
  });
});
