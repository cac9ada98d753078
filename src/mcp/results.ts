// Projection of runtime results and errors into MCP tool results (SPEC §3, §5).

import { CommandError } from "../errors.js";

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** A success: structuredContent and a text block holding the same object, pretty-printed. */
export function successResult(value: object): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
    structuredContent: value as Record<string, unknown>,
    isError: false,
  };
}

/** A tool error: exactly one text block `CODE: message` and no structuredContent. */
export function errorResult(error: CommandError): ToolResult {
  return { content: [{ type: "text", text: `${error.code}: ${error.message}` }], isError: true };
}
