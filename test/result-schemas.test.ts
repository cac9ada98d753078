// The e2e helper's result check (helpers/result-schemas.ts) fails on results that break the
// declared outputSchema — an undeclared field, a missing required field, a wrong type, a success
// without structuredContent, a text block carrying another object — and passes a matching one.

import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { toolDefinitions } from "../src/mcp/tools.js";
import { resultChecker } from "./helpers/result-schemas.js";

const checker = resultChecker(toolDefinitions(["true"]) as unknown as Tool[]);

const page = { offset: 0, bytes: 3, nextOffset: 3, eof: true, encoding: "utf8", text: "abc" };

function success(value: Record<string, unknown>, text = JSON.stringify(value)): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: value, isError: false };
}

describe("result schema check", () => {
  it("passes a page that matches system_output's schema, in compact or pretty text", () => {
    expect(() => checker.check("system_output", success(page))).not.toThrow();
    const pretty = JSON.stringify(page, null, 2);
    expect(() => checker.check("system_output", success(page, pretty))).not.toThrow();
  });

  it("fails on an undeclared field, naming the tool and the field", () => {
    expect(() => checker.check("system_output", success({ ...page, since: 0 }))).toThrow(
      /system_output: result does not match its declared outputSchema: .*additionalProperty.*since/,
    );
  });

  it("fails on a missing required field and on a wrong type", () => {
    const { eof: _eof, ...withoutEof } = page;
    expect(() => checker.check("system_output", success(withoutEof))).toThrow(
      /must have required property 'eof'/,
    );
    expect(() => checker.check("system_output", success({ ...page, bytes: "3" }))).toThrow(
      /\/bytes must be integer/,
    );
  });

  it("fails on a success without structuredContent and on a text block with another object", () => {
    const bare: CallToolResult = { content: [{ type: "text", text: "{}" }], isError: false };
    expect(() => checker.check("system_exec", bare)).toThrow(
      /system_exec: expected structuredContent on a successful result, got none/,
    );
    expect(() =>
      checker.check("system_output", success(page, JSON.stringify({ ...page, bytes: 4 }))),
    ).toThrow(/text block's object differs/);
  });

  it("leaves tool errors alone", () => {
    const error: CallToolResult = { content: [{ type: "text", text: "X: y" }], isError: true };
    expect(() => checker.check("system_exec", error)).not.toThrow();
  });
});
