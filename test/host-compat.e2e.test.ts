// What real hosts need of every tool (SPEC §3, §3.1, HOSTS.md): Gemini CLI's `wait_for_previous`,
// Claude Code's `alwaysLoad`, and a default timeout long enough that a call without `timeoutMs`
// yields instead of being killed.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorText, FIXTURES, shareServer, type TestServer } from "./helpers/server.js";

const TICKER = path.join(FIXTURES, "ticker.mjs");
const YIELD_MS = 400;

let server: TestServer;

shareServer(
  {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    programs: {
      node: { candidates: [process.execPath], policy: { allowBackground: true } },
      true: { candidates: ["true"] },
    },
  },
  ["--yield-ms", String(YIELD_MS)],
  (started) => {
    server = started;
  },
);

/** Minimal valid arguments of each tool; system_exec starts a background handle for the others. */
async function validArguments(): Promise<Record<string, Record<string, unknown>>> {
  const handle = await server.exec({
    program: "node",
    args: [TICKER, "2", "50"],
    background: true,
  });
  const executionId = handle.executionId as string;
  return {
    system_environment: {},
    system_exec: { program: "true" },
    system_wait: { executionId, waitMs: 5_000 },
    system_output: { executionId, stream: "stdout", offset: 0 },
    system_cancel: { executionId },
  };
}

describe("wait_for_previous (Gemini CLI)", () => {
  it("is accepted and ignored on every tool, true or false", async () => {
    const { tools } = await server.client.listTools();
    for (const flag of [true, false]) {
      const calls = await validArguments();
      expect(Object.keys(calls).sort()).toEqual(tools.map((t) => t.name).sort());
      for (const tool of ["system_environment", "system_exec", "system_output", "system_wait"]) {
        const result = await server.call(tool, { ...calls[tool], wait_for_previous: flag });
        expect(result.isError, `${tool}: ${errorText(result)}`).toBe(false);
      }
      const cancelled = await server.call("system_cancel", {
        ...calls.system_cancel,
        wait_for_previous: flag,
      });
      expect(cancelled.isError, errorText(cancelled)).toBe(false);
    }
  });

  it("is not declared in any input schema", async () => {
    const { tools } = await server.client.listTools();
    for (const tool of tools) {
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).not.toContain(
        "wait_for_previous",
      );
      expect((tool.inputSchema as any).additionalProperties, tool.name).toBe(false);
    }
  });

  it("other unknown keys stay refused on every tool, with or without it", async () => {
    const calls = await validArguments();
    for (const [tool, args] of Object.entries(calls)) {
      for (const extra of [{ shell: true }, { shell: true, wait_for_previous: true }]) {
        const result = await server.call(tool, { ...args, ...extra });
        expect(result.isError, tool).toBe(true);
        expect(errorText(result), tool).toMatch(/^INVALID_REQUEST: unknown argument "shell"/);
      }
    }
    await server.call("system_cancel", calls.system_cancel!);
  });

  it("a wait_for_previous that is not a boolean is INVALID_REQUEST", async () => {
    const result = await server.call("system_exec", { program: "true", wait_for_previous: "yes" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/^INVALID_REQUEST: wait_for_previous must be a boolean/);
  });
});

describe("tools/list _meta (Claude Code)", () => {
  it("every tool carries anthropic/alwaysLoad; the paging tools keep maxResultSizeChars", async () => {
    const { tools } = await server.client.listTools();
    expect(tools).toHaveLength(5);
    const large = new Set(["system_exec", "system_output", "system_wait"]);
    for (const tool of tools) {
      const expected: Record<string, unknown> = { "anthropic/alwaysLoad": true };
      if (large.has(tool.name)) expected["anthropic/maxResultSizeChars"] = 2_000_000;
      expect(tool._meta, tool.name).toEqual(expected);
    }
  });
});

describe("default timeout (§3.1)", () => {
  it("is 600000 in limits and in every program's policy", async () => {
    const report = (await server.call("system_environment")).structuredContent as any;
    expect(report.limits.defaultTimeoutMs).toBe(600_000);
    expect(report.programs.true.policy.defaultTimeoutMs).toBe(600_000);
  });

  it("a call with no timeoutMs past --yield-ms yields, then completes via system_wait", async () => {
    const started = Date.now();
    // 6 lines 300 ms apart: about 1.8 s, well past the 400 ms yield.
    const handle = await server.exec({ program: "node", args: [TICKER, "6", "300", "4"] });
    expect(handle.status).toBe("running");
    expect(handle.elapsedMs).toBeGreaterThanOrEqual(YIELD_MS);
    // The snapshot says when the tree will be killed: the 10-minute default.
    expect(handle.timeoutMs).toBe(600_000);
    let result = handle;
    while (result.status === "running") {
      const waited = await server.call("system_wait", { executionId: handle.executionId });
      expect(waited.isError, errorText(waited)).toBe(false);
      result = waited.structuredContent as Record<string, any>;
    }
    expect(result.executionId).toBe(handle.executionId);
    expect(result.exitCode).toBe(4);
    expect(result.timedOut).toBe(false);
    expect(result.stdout.text).toContain("line 0006");
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
