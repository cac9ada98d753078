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
import type { FromSchema } from "./schema-types.js";

/** A page size as the descriptions show it. */
const pageSizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

const executionIdField = {
  type: "string",
  description: "the executionId of a running handle from system_exec",
} as const;

export const waitInputSchema = {
  type: "object",
  properties: {
    executionId: executionIdField,
    waitMs: {
      type: "integer",
      minimum: 0,
      description: `how long to wait at most (default ${DEFAULT_WAIT_MS}, at most ${MAX_WAIT_MS})`,
    },
    until: {
      type: "object",
      description: "return as soon as a line of output matches",
      properties: {
        pattern: {
          type: "string",
          description: `RE2 regular expression, at most ${MAX_PATTERN_CHARS} characters`,
        },
        stream: { type: "string", enum: STREAMS, description: "default: both" },
        fromOffset: {
          type: "integer",
          minimum: 0,
          description: "byte offset to match from (default 0: all output so far)",
        },
      },
      required: ["pattern"],
      additionalProperties: false,
    },
    since: {
      type: "object",
      description:
        "start the snapshot's excerpts at these byte offsets instead of after the last snapshot",
      properties: {
        stdout: { type: "integer", minimum: 0 },
        stderr: { type: "integer", minimum: 0 },
      },
      additionalProperties: false,
    },
    full: { type: "boolean", description: "true: excerpts of all output so far, not only new" },
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
      description:
        "ms between SIGTERM and SIGKILL " +
        `(default: the program's policy, at most ${MAX_GRACE_PERIOD_REQUEST_MS})`,
    },
  },
  required: ["executionId"],
  additionalProperties: false,
} as const;

/** The system_exec input schema; `programs` become its enum (sorted). */
export function execInputSchema(programs: string[]) {
  const program: { type: "string"; description: string; enum?: string[] } = {
    type: "string",
    description: "a registered Logical Program name (see system_environment)",
  };
  if (programs.length > 0) program.enum = [...programs].sort();
  return {
    type: "object",
    properties: {
      program,
      args: {
        type: "array",
        items: { type: "string" },
        description: "arguments passed literally, one array item per argument (default [])",
      },
      cwd: {
        type: "string",
        description: "working directory: inside a Root; relative to the Root when there is one",
      },
      timeoutMs: {
        type: "integer",
        minimum: 1,
        description: "kill the process tree after this many milliseconds",
      },
      input: {
        type: "string",
        description: "text written to stdin, then stdin is closed (only if the program allows)",
      },
      yieldMs: {
        type: "integer",
        minimum: 1,
        description:
          "return a running handle if the program is still running after this many ms " +
          `(default ${DEFAULT_YIELD_MS}); it keeps running under timeoutMs`,
      },
      background: {
        type: "boolean",
        description:
          "start and return a running handle at once, for dev servers and watchers " +
          "(needs the program's policy.allowBackground)",
      },
      approvalId: {
        type: "string",
        description:
          "after APPROVAL_REQUIRED: the approval id, once the user ran " +
          "`system-command-mcp approve <id>`; call again with exactly the same arguments",
      },
    },
    required: ["program"],
    additionalProperties: false,
  } as const;
}

export const outputInputSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "artifact.id from a system_exec result" },
    executionId: {
      type: "string",
      description: "instead of id: a running handle's executionId (live output, running or ended)",
    },
    stream: { type: "string", enum: STREAMS },
    offset: {
      type: "integer",
      description: "byte offset; start at 0; negative counts from the end (-4096: last 4 KiB)",
    },
    limit: {
      type: "integer",
      minimum: 1,
      description:
        `bytes wanted (default ${DEFAULT_OUTPUT_PAGE_BYTES}; at most ` +
        `${pageSizeText(OUTPUT_PAGE_MAX_UTF8_BYTES)} utf8, ` +
        `${pageSizeText(OUTPUT_PAGE_MAX_BASE64_BYTES)} base64)`,
    },
    encoding: { type: "string", enum: OUTPUT_ENCODINGS, description: "default utf8" },
    grep: {
      type: "object",
      description:
        "search instead of paging: matching lines from offset, each with byte offset and " +
        "line number; continue at nextOffset",
      properties: {
        pattern: {
          type: "string",
          description: `RE2 regular expression, at most ${MAX_PATTERN_CHARS} characters`,
        },
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
      description:
        "with executionId: when offset is past the bytes so far, wait up to this long for more " +
        `(default 0, at most ${MAX_WAIT_MS})`,
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
