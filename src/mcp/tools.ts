// Tool definitions: JSON Schemas defined once, served by tools/list and checked on every call (§3).

import { DEFAULT_YIELD_MS, MAX_RESULT_SIZE_CHARS } from "../limits.js";
import {
  environmentReportSchema,
  executionReportSchema,
  outputPageSchema,
} from "./output-schemas.js";
import {
  cancelInputSchema,
  execInputSchema,
  outputInputSchema,
  waitInputSchema,
} from "./input-schemas.js";

export type { CancelArgs, ExecArgs, OutputArgs, WaitArgs } from "./input-schemas.js";

type Schema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Schema & { type: "object" };
  outputSchema: Schema & { type: "object" };
  annotations: Record<string, boolean>;
  _meta?: Record<string, unknown>;
}

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

/** Every tool, in tools/list order (§3). */
export function toolDefinitions(programs: string[]): ToolDefinition[] {
  return [
    {
      name: "system_environment",
      description: ENVIRONMENT_DESCRIPTION,
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      outputSchema: environmentReportSchema,
      annotations: READ_ONLY,
      _meta: ALWAYS_LOAD_META,
    },
    {
      name: "system_output",
      description: OUTPUT_DESCRIPTION,
      inputSchema: outputInputSchema,
      outputSchema: outputPageSchema,
      annotations: READ_ONLY,
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_exec",
      description: EXEC_DESCRIPTION,
      inputSchema: execInputSchema(programs),
      outputSchema: executionReportSchema,
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
      outputSchema: executionReportSchema,
      annotations: READ_ONLY,
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_cancel",
      description: CANCEL_DESCRIPTION,
      inputSchema: cancelInputSchema,
      outputSchema: executionReportSchema,
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
