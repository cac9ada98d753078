// Every successful tool result the e2e suite receives is checked against the outputSchema that
// tools/list served for that tool (SPEC §3: "Result variants share one root object"), with ajv —
// so a field a result carries but the schema does not declare (or the reverse, a required field
// a variant lacks) fails the test that produced it, naming the tool and ajv's errors.

import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import {
  environmentReportSchema,
  executionReportSchema,
  outputPageSchema,
} from "../../src/mcp/output-schemas.js";

/**
 * The full output schema of each tool (nested fields typed, no additional properties anywhere):
 * tools/list serves a shorter form (mcp/served-schema.ts), and results are checked against both.
 */
const FULL_SCHEMAS: Record<string, object> = {
  system_environment: environmentReportSchema,
  system_output: outputPageSchema,
  system_exec: executionReportSchema,
  system_wait: executionReportSchema,
  system_cancel: executionReportSchema,
};

/** Checks results of the tools in one tools/list answer. */
export interface ResultChecker {
  /** Throws when a successful result of `tool` does not match its declared outputSchema. */
  check: (tool: string, result: CallToolResult) => void;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map(
      (error) =>
        `${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`,
    )
    .join("; ");
}

/** A checker for the tools a server served; tools without an outputSchema are not checked. */
export function resultChecker(tools: readonly Tool[]): ResultChecker {
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  const validators = new Map<string, ValidateFunction[]>();
  const full = new Map<object, ValidateFunction>();
  for (const tool of tools) {
    if (!tool.outputSchema) continue;
    const checks: ValidateFunction[] = [ajv.compile(tool.outputSchema)];
    const schema = FULL_SCHEMAS[tool.name];
    if (schema) {
      if (!full.has(schema)) full.set(schema, ajv.compile(schema));
      checks.push(full.get(schema)!);
    }
    validators.set(tool.name, checks);
  }
  return {
    check(tool, result) {
      if (result.isError) return;
      const checks = validators.get(tool);
      if (!checks) return;
      const value = result.structuredContent;
      if (value === undefined) {
        throw new Error(`${tool}: expected structuredContent on a successful result, got none`);
      }
      for (const [index, validate] of checks.entries()) {
        if (!validate(value)) {
          const which = index === 0 ? "declared outputSchema" : "full output schema";
          throw new Error(
            `${tool}: result does not match its ${which}: ${describeErrors(validate.errors)}`,
          );
        }
      }
      checkTextBlock(tool, result);
    },
  };
}

/** The text block carries the same object (its formatting — compact or pretty — is not checked). */
function checkTextBlock(tool: string, result: CallToolResult): void {
  const block = result.content[0];
  if (result.content.length !== 1 || !block || block.type !== "text") {
    throw new Error(
      `${tool}: expected exactly one text block, got ${result.content.length} blocks`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.text);
  } catch {
    throw new Error(`${tool}: expected the text block to be JSON, got ${block.text.slice(0, 80)}`);
  }
  if (JSON.stringify(parsed) !== JSON.stringify(result.structuredContent)) {
    throw new Error(`${tool}: the text block's object differs from structuredContent`);
  }
}
