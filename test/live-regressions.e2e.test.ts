// Regressions found in review of the live-output path (SPEC §19): prompt wake-ups, fast background
// executions, `until` at the spool cap, and a slow spool not mistaken for held-open pipes.

import { describe, expect, it } from "vitest";
import { Execution } from "../src/runtime/execution.js";
import { readLivePage } from "../src/runtime/live.js";
import type { Spool, SpoolSource } from "../src/output/types.js";
import { errorText, shareServer, type TestServer } from "./helpers/server.js";

let dir: string;
let server: TestServer;

shareServer(
  {
    version: 2,
    programs: {
      sh: { candidates: ["/bin/sh"], policy: { allowBackground: true } },
      seq: { candidates: ["/usr/bin/seq"], policy: { allowBackground: true } },
    },
  },
  ["--artifact-max-stream-bytes", "1000"],
  (started, made) => {
    server = started;
    dir = made;
  },
);

/** An Execution of `node -e script` straight on the runtime layer, with a 1,000-byte inline limit. */
function startNode(script: string, artifacts?: SpoolSource): Promise<Execution> {
  return Execution.start({
    launch: {
      command: process.execPath,
      args: ["-e", script],
      cwd: dir,
      env: { PATH: process.env.PATH ?? "" },
      stdinPipe: false,
    },
    timeoutMs: 30_000,
    gracePeriodMs: 2_000,
    finalTerminationWaitMs: 5_000,
    artifactPolicy: "on-truncation",
    // The --max-output-bytes 1000 compatibility budget: 1,000 bytes per stream, head 250.
    inlineBudget: { maxOutputBytes: 1_000, budgetBytes: 2_000 },
    artifacts,
    selection: { logicalName: "node", executable: process.execPath },
  });
}

describe("live output", () => {
  it("wakes a waiting read as soon as a line is readable, not at the end of waitMs", async () => {
    const handle = await server.exec({
      program: "sh",
      args: ["-c", "sleep 0.3; echo ready; sleep 30"],
      background: true,
    });
    try {
      const started = Date.now();
      const page = await server.call("system_output", {
        executionId: handle.executionId,
        stream: "stdout",
        offset: 0,
        waitMs: 45_000,
      });
      expect((page.structuredContent as any).text).toBe("ready\n");
      // Well below the 45 s it was allowed to wait (any machine prints one line in far less).
      expect(Date.now() - started).toBeLessThan(30_000);

      const matched = await server.call("system_wait", {
        executionId: handle.executionId,
        until: { pattern: "^ready$" },
        waitMs: 45_000,
      });
      expect((matched.structuredContent as any).match).toMatchObject({ offset: 0, text: "ready" });
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId });
    }
  });

  it("ends the live output of a background execution that finished at once with eof", async () => {
    const handle = await server.exec({ program: "sh", args: ["-c", "echo hi"], background: true });
    let offset = 0;
    let text = "";
    for (let guard = 0; guard < 50; guard++) {
      const page = (
        await server.call("system_output", {
          executionId: handle.executionId,
          stream: "stdout",
          offset,
          waitMs: 1_000,
        })
      ).structuredContent as any;
      text += page.text;
      offset = page.nextOffset;
      if (page.eof) break;
    }
    expect(text).toBe("hi\n");
    const done = (await server.call("system_wait", { executionId: handle.executionId }))
      .structuredContent as any;
    expect(done.status).toBe("completed");
  });

  it("keeps system_wait until answering once the spool reached its cap", async () => {
    const handle = await server.exec({ program: "seq", args: ["1", "2000"], background: true });
    const result = await server.call("system_wait", {
      executionId: handle.executionId,
      until: { pattern: "^no such line$" },
      waitMs: 5_000,
    });
    expect(result.isError, errorText(result)).toBe(false);
    expect((result.structuredContent as any).status).toBe("completed");
    const past = await server.call("system_output", {
      executionId: handle.executionId,
      stream: "stdout",
      offset: 1000,
    });
    expect(errorText(past)).toMatch(/^OUTPUT_CAP_EXCEEDED: /);
  });
});

describe("a slow spool", () => {
  it("holds the readers back without being reported as pipes held open", async () => {
    // A store whose spool takes 1.5 s to create (a cold, recovering store on a slow disk).
    const written: Record<string, number> = { stdout: 0, stderr: 0 };
    const slow: SpoolSource = {
      async createStaging(): Promise<Spool> {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return {
          id: "0".repeat(32),
          write: (stream, chunk) => ((written[stream]! += chunk.length), true),
          drained: async () => {},
          spooledBytes: (stream) => written[stream]!,
          readLive: async () => {
            throw new Error("not read here");
          },
          openReader: async () => {
            throw new Error("not read here");
          },
          end: async () => {},
          keep: async () => {},
          onFlushed: () => () => {},
          publish: async () => ({ status: "published", id: "0".repeat(32) }),
          discard: async () => {},
        };
      },
    };
    const execution = await startNode("process.stdout.write('x'.repeat(200000))", slow);
    const result = await execution.result;
    expect(result.exitCode).toBe(0);
    expect(result.stdout.totalBytes).toBe(200_000);
    expect(written.stdout).toBe(200_000);
    expect(result.termination.cleanupError).toBeUndefined();
    expect(result.termination.diagnostics.adapter).toBe("natural");
    expect(result.artifact.status).toBe("published");
  });
});

describe("a finished execution with no spool", () => {
  it("pages its in-memory output with the usual rules (utf8 boundaries, eof, offsets)", async () => {
    const text = "héllo wörld ✓\n";
    const execution = await startNode(`process.stdout.write(${JSON.stringify(text)})`);
    await execution.result;
    let offset = 0;
    let joined = "";
    for (let guard = 0; guard < 100; guard++) {
      const page = await readLivePage(execution, "stdout", offset, 2, "utf8", 0);
      expect(page.bytes).toBeGreaterThan(0);
      joined += page.text;
      offset = page.nextOffset;
      if (page.eof) break;
    }
    expect(joined).toBe(text);
    const whole = await readLivePage(execution, "stdout", 0, 1 << 20, "base64", 0);
    expect(Buffer.from(whole.base64!, "base64").toString()).toBe(text);
    await expect(
      readLivePage(execution, "stdout", Buffer.byteLength(text) + 1, 10, "utf8", 0),
    ).rejects.toMatchObject({ code: "INVALID_OUTPUT_OFFSET" });
  });
});
