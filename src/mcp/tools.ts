// Tool definitions: JSON Schemas defined once, served by tools/list and checked on every call (§3).

import {
  DEFAULT_OUTPUT_PAGE_BYTES,
  DEFAULT_WAIT_MS,
  DEFAULT_YIELD_MS,
  GREP_DEFAULT_MAX_MATCHES,
  GREP_MAX_MATCHES,
  MAX_GRACE_PERIOD_REQUEST_MS,
  MAX_PATTERN_CHARS,
  MAX_RESULT_SIZE_CHARS,
  MAX_WAIT_MS,
  OUTPUT_PAGE_MAX_BASE64_BYTES,
  OUTPUT_PAGE_MAX_UTF8_BYTES,
} from "../limits.js";
import { OUTPUT_ENCODINGS, STREAMS } from "../output/types.js";
import {
  environmentReportSchema,
  executionReportSchema,
  outputPageSchema,
} from "./output-schemas.js";
import type { FromSchema } from "./schema-types.js";

type Schema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Schema & { type: "object" };
  outputSchema: Schema & { type: "object" };
  annotations: Record<string, boolean>;
  _meta?: Record<string, unknown>;
}

/** A page size as the descriptions show it. */
const pageSizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

const executionIdField = {
  type: "string",
  description: "the executionId of a running handle from system_exec",
} as const;

const waitInputSchema = {
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

const cancelInputSchema = {
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

const WAIT_DESCRIPTION = [
  'Wait for an execution that returned a running handle (status "running") from system_exec.',
  "Returns the completed result as soon as it ends, or a running snapshot after waitMs; with",
  'until.pattern it returns as soon as a line of output matches (e.g. a dev server\'s "listening"',
  "line), adding match { stream, offset, text }. Call it again to keep waiting. A running snapshot",
  "shows only output that is new since the previous snapshot (stdout.sinceOffset says where it",
  "starts; pass full: true for everything so far). The completed result shows the whole output.",
].join(" ");

const CANCEL_DESCRIPTION = [
  "Stop an execution that returned a running handle: SIGTERM to its whole process tree, SIGKILL",
  "after the grace period. Returns the completed result (cancelled: true). Use it for background",
  "servers and watchers you no longer need.",
].join(" ");

/** Claude Code defers tools behind ToolSearch unless they carry this (HOSTS.md). */
const ALWAYS_LOAD_META = { "anthropic/alwaysLoad": true };
const LARGE_RESULT_META = {
  ...ALWAYS_LOAD_META,
  "anthropic/maxResultSizeChars": MAX_RESULT_SIZE_CHARS,
};

const READ_ONLY = { readOnlyHint: true, openWorldHint: false };

const EXEC_DESCRIPTION = [
  "Run one registered program directly (no shell) with literal arguments and get a structured",
  "result: exitCode/signal, head+tail excerpts of stdout and stderr with exact byte counts, and",
  "an artifact id when output was truncated. Every argument reaches the program exactly as given:",
  "there are no pipelines, redirects, globbing, `cd`, `&&` or $VAR expansion — use the host shell",
  "for those. A nonzero exitCode is a normal result, not a tool failure. When stdout.truncated or",
  'stderr.truncated is true and artifact.status is "published", read the part left out with',
  "system_output { id: artifact.id, stream, offset: omittedFrom } and follow nextOffset until eof.",
  "Call system_environment to see the registered programs, Roots and limits.",
  `A call still running after yieldMs (default ${DEFAULT_YIELD_MS / 1000} s) returns status "running" with an`,
  "executionId instead of being cut off: continue with system_wait, read live output with",
  "system_output { executionId }, or stop it with system_cancel. Pass background: true for dev",
  "servers and watchers (the program's policy.allowBackground must allow it).",
].join(" ");

const ENVIRONMENT_DESCRIPTION = [
  "Describe this server: registered programs (executable, policy, timeouts), Working Directory",
  "Roots (where a cwd may be; they are not a sandbox), the PATH programs see, the names of",
  "environment variables the manifest sets (never values) and every limit. Call it once before",
  "system_exec when unsure which programs exist.",
].join(" ");

const OUTPUT_DESCRIPTION = [
  "Read the complete stdout or stderr of a finished execution page by page, from the artifact id",
  'in its result (artifact.status "published"). Start at offset 0 and pass nextOffset back until',
  "eof is true; utf8 pages end on a character boundary, so bytes may be below limit — always",
  "follow nextOffset. A negative offset counts from the end (-4096: the last 4 KiB). grep:",
  "{ pattern } returns matching lines with line numbers instead of a page (continue at",
  'nextOffset while eof is false). Use encoding "base64" for binary output. For an execution that',
  "returned a running handle pass executionId instead of id to read its output live (waitMs",
  "waits for more); eof becomes true only after it has ended.",
].join(" ");

/** The system_exec input schema; `programs` become its enum (sorted). */
function execInputSchema(programs: string[]) {
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

const outputInputSchema = {
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

/** Every tool, in tools/list order (§3). */
export function toolDefinitions(programs: string[]): ToolDefinition[] {
  return [
    {
      name: "system_environment",
      description: ENVIRONMENT_DESCRIPTION,
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      outputSchema: environmentReportSchema as ToolDefinition["outputSchema"],
      annotations: READ_ONLY,
      _meta: ALWAYS_LOAD_META,
    },
    {
      name: "system_output",
      description: OUTPUT_DESCRIPTION,
      inputSchema: outputInputSchema,
      outputSchema: outputPageSchema as ToolDefinition["outputSchema"],
      annotations: READ_ONLY,
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_exec",
      description: EXEC_DESCRIPTION,
      inputSchema: execInputSchema(programs),
      outputSchema: executionReportSchema as ToolDefinition["outputSchema"],
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_wait",
      description: WAIT_DESCRIPTION,
      inputSchema: waitInputSchema,
      outputSchema: executionReportSchema as ToolDefinition["outputSchema"],
      annotations: READ_ONLY,
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_cancel",
      description: CANCEL_DESCRIPTION,
      inputSchema: cancelInputSchema,
      outputSchema: executionReportSchema as ToolDefinition["outputSchema"],
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
      _meta: ALWAYS_LOAD_META,
    },
  ];
}
