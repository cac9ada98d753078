// Executions that outlive one tool call (SPEC §19): yield, background, wait, cancel, live output.

import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  errorText,
  FIXTURES,
  isAlive,
  withServer,
  shareServer,
  type TestServer,
} from "./helpers/server.js";

const TICKER = path.join(FIXTURES, "ticker.mjs");
const HTTP_SERVER = path.join(FIXTURES, "http-server.mjs");

let server: TestServer;

function manifest() {
  return {
    version: 2,
    programs: {
      node: { candidates: [process.execPath], policy: { allowBackground: true } },
      sh: { candidates: ["/bin/sh"] },
    },
  };
}

shareServer(manifest(), [], (started) => {
  server = started;
});

/** The parts of a Canonical Result that do not depend on timing or identity. */
function stable(result: Record<string, any>) {
  const { executionId: _id, durationMs: _d, artifact, ...rest } = result;
  return { ...rest, artifactStatus: artifact.status };
}

describe("yield", () => {
  it("yields a running handle, and system_wait returns the result a direct call gives", async () => {
    const args = [TICKER, "10", "300", "3"];
    const handle = await server.exec({ program: "node", args, yieldMs: 500, timeoutMs: 20_000 });
    expect(handle.status).toBe("running");
    expect(handle.executionId).toMatch(/^[0-9a-f]{32}$/);
    expect(handle.elapsedMs).toBeGreaterThanOrEqual(500);
    expect(handle.programSelection.logicalName).toBe("node");

    let result = await server.call("system_wait", { executionId: handle.executionId });
    while ((result.structuredContent as any).status === "running") {
      result = await server.call("system_wait", { executionId: handle.executionId });
    }
    const waited = result.structuredContent as Record<string, any>;
    expect(waited.executionId).toBe(handle.executionId);
    const direct = await server.exec({ program: "node", args, timeoutMs: 20_000 });
    expect(direct.status).toBe("completed");
    expect(stable(waited)).toEqual(stable(direct));
    expect(waited.exitCode).toBe(3);
  });

  it("never yields when timeoutMs ≤ yieldMs", async () => {
    const result = await server.exec({
      program: "node",
      args: [TICKER, "100", "100"],
      timeoutMs: 800,
      yieldMs: 800,
    });
    expect(result.status).toBe("completed");
    expect(result.timedOut).toBe(true);
  });

  it("pages live output of a running execution: every byte exactly once, then eof", async () => {
    const handle = await server.exec({
      program: "node",
      args: [TICKER, "40", "40"],
      yieldMs: 100,
      timeoutMs: 30_000,
    });
    expect(handle.status).toBe("running");
    let offset = 0;
    let text = "";
    for (let guard = 0; guard < 2_000; guard++) {
      const page = await server.call("system_output", {
        executionId: handle.executionId,
        stream: "stdout",
        offset,
        limit: 37,
        waitMs: 2_000,
      });
      expect(page.isError, JSON.stringify(page.content)).toBe(false);
      const content = page.structuredContent as any;
      expect(content.nextOffset).toBe(offset + content.bytes);
      text += content.text;
      offset = content.nextOffset;
      if (content.eof) break;
    }
    const expected = Array.from(
      { length: 40 },
      (_, i) => `line ${String(i + 1).padStart(4, "0")} ${"x".repeat((i + 1) % 17)}\n`,
    ).join("");
    expect(text).toBe(expected);
    const past = await server.call("system_output", {
      executionId: handle.executionId,
      stream: "stdout",
      offset: offset + 1,
    });
    expect(errorText(past)).toMatch(/^INVALID_OUTPUT_OFFSET: /);
  });

  it("keeps a yielded foreground execution's slot until it ends", async () => {
    await withServer(manifest(), ["--max-concurrent-executions", "1"], async (limited) => {
      const handle = await limited.exec({
        program: "node",
        args: [TICKER, "8", "250"],
        yieldMs: 200,
        timeoutMs: 20_000,
      });
      expect(handle.status).toBe("running");
      const refused = await limited.call("system_exec", { program: "sh", args: ["-c", "true"] });
      expect(errorText(refused)).toMatch(/^CONCURRENCY_LIMIT: /);
      expect(errorText(refused)).toContain(handle.executionId);
      let done = await limited.call("system_wait", { executionId: handle.executionId });
      while ((done.structuredContent as any).status === "running") {
        done = await limited.call("system_wait", { executionId: handle.executionId });
      }
      const after = await limited.exec({ program: "sh", args: ["-c", "true"] });
      expect(after.exitCode).toBe(0);
    });
  });

  it("sends progress notifications while a call waits", async () => {
    const progress: number[] = [];
    await server.client.callTool(
      { name: "system_exec", arguments: { program: "node", args: [TICKER, "9", "300"] } },
      undefined,
      { onprogress: (p) => progress.push(p.progress), timeout: 30_000 },
    );
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toBeGreaterThanOrEqual(900);
  });
});

describe("background", () => {
  it("runs a loopback HTTP server: until its listening line, a request, then cancel", async () => {
    const handle = await server.exec({ program: "node", args: [HTTP_SERVER], background: true });
    expect(handle.status).toBe("running");
    const waited = await server.call("system_wait", {
      executionId: handle.executionId,
      until: { pattern: "listening on (\\d+)", stream: "stdout" },
      waitMs: 20_000,
    });
    const snapshot = waited.structuredContent as any;
    expect(snapshot.status).toBe("running");
    expect(snapshot.match.stream).toBe("stdout");
    const port = Number(/listening on (\d+)/.exec(snapshot.match.text)?.[1]);
    const pid = Number(/pid (\d+)/.exec(snapshot.stdout.text)?.[1]);
    expect(pid).toBeGreaterThan(1);
    const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(body).toBe(`hello from ${pid}`);

    const cancelled = (await server.call("system_cancel", { executionId: handle.executionId }))
      .structuredContent as any;
    expect(cancelled.status).toBe("completed");
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.termination).toMatchObject({ reason: "cancelled", treeCleaned: true });
    expect(isAlive(pid)).toBe(false);
    const again = await server.call("system_wait", { executionId: handle.executionId });
    expect((again.structuredContent as any).status).toBe("completed");
  });

  it("cancelling a system_wait call ends only the wait", async () => {
    const handle = await server.exec({ program: "node", args: [HTTP_SERVER], background: true });
    const abort = new AbortController();
    const waiting = server.client
      .callTool(
        { name: "system_wait", arguments: { executionId: handle.executionId, waitMs: 20_000 } },
        undefined,
        { signal: abort.signal },
      )
      .catch((e: unknown) => e);
    setTimeout(() => abort.abort("stop waiting"), 300);
    await waiting;
    const still = await server.call("system_wait", {
      executionId: handle.executionId,
      waitMs: 200,
    });
    expect((still.structuredContent as any).status).toBe("running");
    await server.call("system_cancel", { executionId: handle.executionId });
  });

  it("refuses background for a program without allowBackground", async () => {
    const result = await server.call("system_exec", {
      program: "sh",
      args: ["-c", "sleep 1"],
      background: true,
    });
    expect(errorText(result)).toMatch(/^BACKGROUND_NOT_ALLOWED: /);
  });

  it("enforces --max-background-executions", async () => {
    await withServer(manifest(), ["--max-background-executions", "1"], async (limited) => {
      const first = await limited.exec({ program: "node", args: [HTTP_SERVER], background: true });
      const second = await limited.call("system_exec", {
        program: "node",
        args: [HTTP_SERVER],
        background: true,
      });
      expect(errorText(second)).toMatch(/^BACKGROUND_LIMIT: /);
      const foreground = await limited.exec({ program: "sh", args: ["-c", "echo ok"] });
      expect(foreground.stdout.text).toBe("ok\n");
      await limited.call("system_cancel", { executionId: first.executionId });
    });
  });
});

describe("codes", () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ["yieldMs 0", "system_exec", { program: "sh", yieldMs: 0 }, "INVALID_YIELD"],
    ["yieldMs too big", "system_exec", { program: "sh", yieldMs: 600001 }, "INVALID_YIELD"],
    [
      "waitMs too big",
      "system_wait",
      { executionId: "a".repeat(32), waitMs: 50001 },
      "INVALID_WAIT",
    ],
    ["unknown execution", "system_wait", { executionId: "a".repeat(32) }, "EXECUTION_NOT_FOUND"],
    ["unknown execution to cancel", "system_cancel", { executionId: "x" }, "EXECUTION_NOT_FOUND"],
    [
      "both id and executionId",
      "system_output",
      { id: "a".repeat(32), executionId: "b".repeat(32), stream: "stdout", offset: 0 },
      "INVALID_REQUEST",
    ],
    [
      "neither id nor executionId",
      "system_output",
      { stream: "stdout", offset: 0 },
      "INVALID_REQUEST",
    ],
  ];
  for (const [name, tool, args, code] of cases) {
    it(`${name} → ${code}`, async () => {
      const result = await server.call(tool, args);
      expect(errorText(result)).toMatch(new RegExp(`^${code}: `));
    });
  }

  it("refuses an invalid or too long until.pattern with INVALID_PATTERN", async () => {
    const handle = await server.exec({ program: "node", args: [HTTP_SERVER], background: true });
    try {
      for (const pattern of ["(", "(?=x)", "a".repeat(257)]) {
        const result = await server.call("system_wait", {
          executionId: handle.executionId,
          until: { pattern },
        });
        expect(errorText(result)).toMatch(/^INVALID_PATTERN: /);
      }
    } finally {
      await server.call("system_cancel", { executionId: handle.executionId });
    }
  });

  it("refuses a gracePeriodMs above 50000 with INVALID_REQUEST", async () => {
    const handle = await server.exec({ program: "node", args: [HTTP_SERVER], background: true });
    const result = await server.call("system_cancel", {
      executionId: handle.executionId,
      gracePeriodMs: 50001,
    });
    expect(errorText(result)).toMatch(/^INVALID_REQUEST: .*gracePeriodMs/);
    await server.call("system_cancel", { executionId: handle.executionId, gracePeriodMs: 0 });
  });
});
