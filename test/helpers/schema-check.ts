// Validates tool results against the outputSchema the server serves in tools/list, with Ajv (as
// the SDK client does), so that the declared schemas and the real results stay in agreement.

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import AjvModule, { type ValidateFunction } from "ajv";
import { expect } from "vitest";
import type { TestServer } from "./server.js";

const Ajv = AjvModule.default ?? AjvModule;

export type ResultCheck = (tool: string, result: CallToolResult) => void;

/** A checker compiled from the server's own tools/list. */
export async function servedSchemaCheck(server: TestServer): Promise<ResultCheck> {
  const { tools } = await server.client.listTools();
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validators = new Map<string, ValidateFunction>();
  for (const tool of tools) {
    if (tool.outputSchema) validators.set(tool.name, ajv.compile(tool.outputSchema));
  }
  return (tool, result) => {
    expect(result.isError, JSON.stringify(result.content)).toBe(false);
    const validate = validators.get(tool);
    expect(validate, `no outputSchema for ${tool}`).toBeDefined();
    const valid = validate!(result.structuredContent);
    expect(
      valid,
      `${tool} result against its outputSchema: ${ajv.errorsText(validate!.errors)}`,
    ).toBe(true);
  };
}
