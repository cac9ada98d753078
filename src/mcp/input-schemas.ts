// The tools' input schemas (SPEC §3, §3.1, §3.3, §19): plain JSON Schema inside the subset every
// host checks, defined once; the argument types are derived from them.

import {
  DEFAULT_OUTPUT_PAGE_BYTES,
  DEFAULT_WAIT_MS,
  DEFAULT_YIELD_MS,
  GREP_DEFAULT_MAX_MATCHES,
  GREP_MAX_MATCHES,
  MAX_GRACE_PERIOD_REQUEST_MS,
  MAX_PATTERN_CHARS,
  MAX_WAIT_MS,
  OUTPUT_PAGE_MAX_BASE64_BYTES,
  OUTPUT_PAGE_MAX_UTF8_BYTES,
} from "../limits.js";
import { OUTPUT_ENCODINGS, STREAMS } from "../output/types.js";
import { RESULT_DETAILS } from "./compact.js";
import type { FromSchema } from "./schema-types.js";

/** A page size as the descriptions show it. */
const pageSizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

const executionIdField = { type: "string" } as const;

/** An RE2 pattern of `until` and `grep`. */
const patternField = {
  type: "string",
  description: `RE2, at most ${MAX_PATTERN_CHARS} characters`,
} as const;

/** How much of the result to return (mcp/compact.ts). */
const detailField = { type: "string", enum: RESULT_DETAILS } as const;

export const waitInputSchema = {
  type: "object",
  properties: {
    executionId: executionIdField,
    waitMs: {
      type: "integer",
      minimum: 0,
      description: `default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS}`,
    },
    until: {
      type: "object",
      properties: {
        pattern: patternField,
        stream: { type: "string", enum: STREAMS, description: "default both" },
        fromOffset: {
          type: "integer",
          minimum: 0,
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    since: {
      type: "object",
      description: "start excerpts here, not after the last snapshot",
      properties: {
        stdout: { type: "integer", minimum: 0 },
        stderr: { type: "integer", minimum: 0 },
      },
      additionalProperties: false,
    },
    full: { type: "boolean", description: "all output so far, not only new" },
    detail: detailField,
  },
  required: ["executionId"],
  additionalProperties: false,
} as const;

export const cancelInputSchema = {
  type: "object",
  properties: {
    executionId: executionIdField,
    gracePeriodMs: {
      type: "integer",
      minimum: 0,
      description: `ms from SIGTERM to SIGKILL (default: policy; at most ${MAX_GRACE_PERIOD_REQUEST_MS})`,
    },
  },
  required: ["executionId"],
  additionalProperties: false,
} as const;

/** The system_exec input schema; `programs` become its enum (sorted). */
export function execInputSchema(programs: string[]) {
  const program: { type: "string"; description: string; enum?: string[] } = {
    type: "string",
    description: "a registered program (system_environment)",
  };
  if (programs.length > 0) program.enum = [...programs].sort();
  return {
    type: "object",
    properties: {
      program,
      args: {
        type: "array",
        items: { type: "string" },
        description: "one item per argument",
      },
      cwd: {
        type: "string",
        description: "a directory inside a Root (relative: to the Root)",
      },
      timeoutMs: {
        type: "integer",
        minimum: 1,
        description: "kill the tree after this many ms",
      },
      input: {
        type: "string",
        description: "text for stdin (if the program allows)",
      },
      yieldMs: {
        type: "integer",
        minimum: 1,
        description: `return a running handle after this many ms (default ${DEFAULT_YIELD_MS})`,
      },
      background: {
        type: "boolean",
        description: "return a running handle at once (policy.allowBackground)",
      },
      approvalId: {
        type: "string",
        description: "after APPROVAL_REQUIRED and its approve: the id, with the same arguments",
      },
      detail: detailField,
    },
    required: ["program"],
    additionalProperties: false,
  } as const;
}

export const outputInputSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "a result's artifact.id" },
    executionId: {
      type: "string",
    },
    stream: { type: "string", enum: STREAMS },
    offset: {
      type: "integer",
      description: "byte offset; negative: from the end",
    },
    limit: {
      type: "integer",
      minimum: 1,
      description:
        `default ${DEFAULT_OUTPUT_PAGE_BYTES}; at most ` +
        `${pageSizeText(OUTPUT_PAGE_MAX_UTF8_BYTES)} utf8, ` +
        `${pageSizeText(OUTPUT_PAGE_MAX_BASE64_BYTES)} base64`,
    },
    encoding: { type: "string", enum: OUTPUT_ENCODINGS },
    grep: {
      type: "object",
      properties: {
        pattern: patternField,
        maxMatches: {
          type: "integer",
          description: `default ${GREP_DEFAULT_MAX_MATCHES}, at most ${GREP_MAX_MATCHES}`,
        },
        ignoreCase: { type: "boolean" },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    waitMs: {
      type: "integer",
      minimum: 0,
      description: `executionId: wait for more (at most ${MAX_WAIT_MS})`,
    },
  },
  required: ["stream", "offset"],
  additionalProperties: false,
} as const;

/** system_exec arguments as the schema describes them (what the validator lets through). */
export type ExecArgs = FromSchema<ReturnType<typeof execInputSchema>>;
/** system_wait arguments. */
export type WaitArgs = FromSchema<typeof waitInputSchema>;
/** system_cancel arguments. */
export type CancelArgs = FromSchema<typeof cancelInputSchema>;
/** system_output arguments. */
export type OutputArgs = FromSchema<typeof outputInputSchema>;
