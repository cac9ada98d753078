// The build's precompiled tool-argument validators (scripts/build-tool-validators.mjs) agree with
// ajv compiling the schemas tools/list serves: the same arguments pass, and a failing call gets the
// same code and message — the real server (precompiled) against ajv on the served schemas, then
// thousands of generated argument objects in-process. And the first call loads no ajv.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommandError } from "../src/errors.js";
import { ArgumentValidator } from "../src/mcp/validate.js";
import { toolDefinitions, type ToolDefinition } from "../src/mcp/tools.js";
import { errorText, shareServer, type TestServer } from "./helpers/server.js";

/** "ok", or the "CODE: message" a validator throws. */
function outcome(validator: ArgumentValidator, tool: string, args: unknown): string {
  try {
    validator.check(tool, args);
    return "ok";
  } catch (error) {
    if (isCommandError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
}

const INVALID: [string, Record<string, unknown>][] = [
  ["system_exec", { program: "nope" }],
  ["system_exec", { program: 5 }],
  ["system_exec", { args: ["x"] }],
  ["system_exec", { program: "nope", timeoutMs: 0 }],
  ["system_exec", { timeoutMs: "1", program: "true" }],
  ["system_exec", { program: "true", bogus: 1 }],
  ["system_exec", { program: "true", args: [1] }],
  ["system_exec", { program: "true", yieldMs: 0, input: 3 }],
  ["system_exec", { program: "true", wait_for_previous: "yes" }],
  ["system_output", { stream: "stdin", offset: 0 }],
  ["system_output", { stream: "stdout", offset: 1.5, id: "x" }],
  ["system_output", { stream: "stdout", offset: 0, grep: { pattern: "a", bogus: true } }],
  ["system_output", { stream: "stdout" }],
  ["system_wait", { executionId: 3 }],
  ["system_wait", { executionId: "x", until: { pattern: 1 } }],
  ["system_cancel", { executionId: "x", gracePeriodMs: -1 }],
  ["system_environment", { extra: true }],
];

const VALID: [string, Record<string, unknown>][] = [
  ["system_exec", { program: "true" }],
  ["system_exec", { program: "cat", args: ["a"], timeoutMs: 1, yieldMs: 1, background: false }],
  ["system_exec", { program: "true", wait_for_previous: true }],
  ["system_output", { id: "x", stream: "stderr", offset: -1, limit: 1, encoding: "base64" }],
  ["system_output", { executionId: "x", stream: "stdout", offset: 0, grep: { pattern: "a" } }],
  ["system_wait", { executionId: "x", waitMs: 0 }],
  ["system_cancel", { executionId: "x", gracePeriodMs: 0 }],
  ["system_environment", {}],
];

describe("precompiled tool validators against the served schemas", () => {
  let server: TestServer;
  let served: ToolDefinition[];
  shareServer(undefined, [], (s) => (server = s));

  it("every served schema has a precompiled validator (no ajv at run time)", async () => {
    served = (await server.client.listTools()).tools as unknown as ToolDefinition[];
    expect(served.map((t) => t.name)).toContain("system_exec");
    expect(new ArgumentValidator(served).allPrecompiled()).toBe(true);
  });

  it("the server refuses each invalid call with ajv's own code and message", async () => {
    const ajv = new ArgumentValidator(served, undefined, "ajv");
    for (const [tool, args] of INVALID) {
      const expected = outcome(ajv, tool, args);
      expect(expected, `${tool} ${JSON.stringify(args)}`).not.toBe("ok");
      const result = await server.call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      // The server adds the administrator's registration hint to PROGRAM_NOT_REGISTERED (§5).
      const said = errorText(result).replace(/\. An administrator registers it .*$/s, "");
      expect(said, `${tool} ${JSON.stringify(args)}`).toBe(expected);
    }
  });

  it("valid calls pass both the precompiled validators and ajv", () => {
    const ajv = new ArgumentValidator(served, undefined, "ajv");
    const precompiled = new ArgumentValidator(served);
    for (const [tool, args] of VALID) {
      expect(outcome(ajv, tool, args), `${tool} ${JSON.stringify(args)}`).toBe("ok");
      expect(outcome(precompiled, tool, args), `${tool} ${JSON.stringify(args)}`).toBe("ok");
    }
  });
});

describe("precompiled tool validators, generated arguments", () => {
  const tools = toolDefinitions(["git", "node", "true"]);
  const precompiled = new ArgumentValidator(tools);
  const ajv = new ArgumentValidator(tools, undefined, "ajv");

  const value = fc.oneof(
    fc.constantFrom("git", "node", "true", "nope", "", "stdout", "stderr", "utf8", "base64"),
    fc.integer({ min: -3, max: 3 }),
    fc.double({ noNaN: true, min: -2, max: 2 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
    fc.record({ pattern: fc.oneof(fc.string({ maxLength: 2 }), fc.integer()) }),
  );
  const keys = fc.constantFrom(
    ...new Set([
      ...tools.flatMap((t) => Object.keys((t.inputSchema.properties ?? {}) as object)),
      "bogus",
      "wait_for_previous",
    ]),
  );
  const args = fc.oneof(fc.dictionary(keys, value, { maxKeys: 6 }), value, fc.constant(undefined));

  it("give the same outcome as ajv for every tool", () => {
    fc.assert(
      fc.property(fc.constantFrom(...tools.map((t) => t.name)), args, (tool, input) => {
        expect(outcome(precompiled, tool, input)).toBe(outcome(ajv, tool, input));
      }),
      { numRuns: 3_000 },
    );
  });

  it("a schema unlike the one the build compiled is compiled by ajv instead", () => {
    const changed = toolDefinitions(["git"]).map((t) =>
      t.name === "system_wait"
        ? { ...t, inputSchema: { ...t.inputSchema, required: ["executionId", "waitMs"] } }
        : t,
    );
    const validator = new ArgumentValidator(changed);
    expect(validator.allPrecompiled()).toBe(false);
    expect(outcome(validator, "system_wait", { executionId: "x" })).toBe(
      "INVALID_WAIT: waitMs is required",
    );
  });
});
