// system_exec basics through the real server over stdio with the SDK client (SPEC §3, §4, §5).

import { describe, expect, it } from "vitest";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorText, shareServer, type TestServer } from "./helpers/server.js";

let server: TestServer;

shareServer(undefined, [], (started) => {
  server = started;
});

const echoArgs = "process.stdout.write(JSON.stringify(process.argv.slice(1)))";

describe("system_exec", () => {
  it("passes every argument literally, with no shell", async () => {
    const literal = [
      "with space",
      "'single' \"double\"",
      "Unicode ✓ 日本語 🚀",
      "$HOME",
      "*",
      "a && b",
      "a; b",
      "a | b",
      "line1\nline2",
      "",
      "`whoami`",
      "$(id)",
      "> out.txt",
    ];
    const result = await server.exec({ program: "node", args: ["-e", echoArgs, ...literal] });
    expect(JSON.parse(result.stdout.text)).toEqual(literal);
    expect(result.status).toBe("completed");
    expect(result.executionId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("reports a nonzero exit as a result, not a tool error", async () => {
    const result = await server.exec({
      program: "node",
      args: ["-e", "process.stderr.write('bad'); process.exit(7)"],
    });
    expect(result.exitCode).toBe(7);
    expect(result.signal).toBeNull();
    expect(result.stderr.text).toBe("bad");
    expect(result.termination).toEqual({
      reason: null,
      gracefulRequested: false,
      forceUsed: false,
      treeCleaned: null,
      diagnostics: { adapter: "natural" },
    });
  });

  it("reports death by a signal", async () => {
    const result = await server.exec({ program: "sh", args: ["-c", "kill -KILL $$"] });
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe("SIGKILL");
    expect(result.timedOut).toBe(false);
  });

  it("never lets the child inherit the server's stdin: cat without input ends at once", async () => {
    const result = await server.exec({ program: "cat", timeoutMs: 10_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.totalBytes).toBe(0);
    expect(result.inputBytes).toBe(0);
  });

  it("writes input once and closes stdin", async () => {
    // cat ends only on stdin EOF: without the close it would run into the timeout.
    const result = await server.exec({ program: "cat", input: "hello\nwörld", timeoutMs: 30_000 });
    expect(result.status).toBe("completed");
    expect(result.exitCode).toBe(0);
    expect(result.timedOut).toBe(false);
    expect(result.termination.reason).toBeNull();
    // A bound far below the timeout, not a speed target: cat returns at once on EOF.
    expect(result.durationMs).toBeLessThan(15_000);
    expect(result.stdout.text).toBe("hello\nwörld");
    expect(result.inputBytes).toBe(Buffer.byteLength("hello\nwörld"));
  });

  it("refuses input for a program whose policy does not allow stdin", async () => {
    const result = await server.call("system_exec", { program: "sh", input: "x" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/^INVALID_INPUT: /);
  });

  it("carries the whole result both as structuredContent and as the text block", async () => {
    const result = await server.call("system_exec", { program: "true" });
    expect(result.isError).toBe(false);
    const text = result.content[0]!;
    expect(text.type).toBe("text");
    expect(JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  });
});

describe("argument validation", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["unknown program", { program: "bash" }, "PROGRAM_NOT_REGISTERED"],
    ["program of the wrong type", { program: 5 }, "PROGRAM_NOT_REGISTERED"],
    ["missing program", {}, "PROGRAM_NOT_REGISTERED"],
    ["unknown argument key", { program: "true", shell: true }, "INVALID_REQUEST"],
    ["args not an array", { program: "true", args: "a b" }, "INVALID_ARGUMENT"],
    ["args with a number", { program: "true", args: ["a", 1] }, "INVALID_ARGUMENT"],
    ["args with NUL", { program: "true", args: ["a\u0000b"] }, "INVALID_ARGUMENT"],
    ["too many args", { program: "true", args: Array(4097).fill("a") }, "INVALID_ARGUMENT"],
    ["one arg over 64 KiB", { program: "true", args: ["x".repeat(65537)] }, "INVALID_ARGUMENT"],
    [
      "args over 256 KiB in total",
      { program: "true", args: Array(5).fill("x".repeat(60000)) },
      "INVALID_ARGUMENT",
    ],
    ["timeout 0", { program: "true", timeoutMs: 0 }, "INVALID_TIMEOUT"],
    ["fractional timeout", { program: "true", timeoutMs: 1.5 }, "INVALID_TIMEOUT"],
    ["timeout as a string", { program: "true", timeoutMs: "100" }, "INVALID_TIMEOUT"],
    ["timeout as a boolean", { program: "true", timeoutMs: true }, "INVALID_TIMEOUT"],
    ["timeout above the maximum", { program: "true", timeoutMs: 600001 }, "INVALID_TIMEOUT"],
    ["input not a string", { program: "cat", input: 5 }, "INVALID_INPUT"],
    ["input over 1 MiB", { program: "cat", input: "x".repeat(1048577) }, "INVALID_INPUT"],
    ["cwd of the wrong type", { program: "true", cwd: 1 }, "INVALID_REQUEST"],
  ];
  for (const [name, args, code] of cases) {
    it(`${name} → ${code}, with no structuredContent`, async () => {
      const result = await server.call("system_exec", args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(result.content).toHaveLength(1);
      expect(errorText(result)).toMatch(new RegExp(`^${code}: \\S`));
    });
  }

  it("lists the registered programs when the program is unknown", async () => {
    const result = await server.call("system_exec", { program: "bash" });
    expect(errorText(result)).toContain("cat, node, sh, sleep, true");
  });

  it("accepts exactly 4096 args", async () => {
    const result = await server.exec({ program: "true", args: Array(4096).fill("a") });
    expect(result.exitCode).toBe(0);
  });

  it("answers an unknown tool with a JSON-RPC error", async () => {
    const error = await server.client
      .callTool({ name: "system_shell", arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe("tools/list", () => {
  it("lists the tools in order with annotations, schemas and the result-size hint", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).slice(0, 3)).toEqual([
      "system_environment",
      "system_output",
      "system_exec",
    ]);
    const exec = tools.find((t) => t.name === "system_exec")!;
    expect(exec.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(exec._meta).toEqual({
      "anthropic/alwaysLoad": true,
      "anthropic/maxResultSizeChars": 2000000,
    });
    expect((exec.inputSchema.properties as any).program.enum).toEqual([
      "cat",
      "node",
      "sh",
      "sleep",
      "true",
    ]);
    const environment = tools.find((t) => t.name === "system_environment")!;
    expect(environment.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it("keeps every schema inside the subset all hosts accept", async () => {
    const { tools } = await server.client.listTools();
    const allowed = new Set([
      "type",
      "properties",
      "required",
      "additionalProperties",
      "items",
      "enum",
      "const",
      "oneOf",
      "description",
      "title",
      "minimum",
    ]);
    const visit = (schema: any, input: boolean, where: string) => {
      for (const [key, value] of Object.entries(schema)) {
        expect(allowed.has(key), `${where}: keyword ${key}`).toBe(true);
        if (key === "minimum") expect(input, `${where}: minimum in output`).toBe(true);
        if (key === "type") expect(typeof value).toBe("string");
        if (key === "additionalProperties") expect(typeof value).toBe("boolean");
        if (key === "oneOf") expect(schema.type).toBeUndefined();
      }
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        visit(child, input, `${where}.${name}`);
      }
      if (schema.items) visit(schema.items, input, `${where}[]`);
      for (const branch of schema.oneOf ?? []) visit(branch, input, `${where}|`);
    };
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect((tool.outputSchema as any).additionalProperties).toBe(false);
      visit(tool.inputSchema, true, `${tool.name}.input`);
      visit(tool.outputSchema, false, `${tool.name}.output`);
    }
  });
});
