// Tool definitions: JSON Schemas defined once, served by tools/list and checked on every call (§3).

import { DEFAULT_YIELD_MS, MAX_RESULT_SIZE_CHARS } from "../limits.js";
import {
  environmentReportSchema,
  executionReportSchema,
  outputPageSchema,
} from "./output-schemas.js";
import { servedOutputSchema } from "./served-schema.js";
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
  'Wait for a "running" execution: the result when it ends, else new output after waitMs.',
  'until.pattern returns once a line matches (e.g. a server\'s "listening"). Call again to keep waiting.',
].join(" ");

const CANCEL_DESCRIPTION = [
  "Stop a running execution: SIGTERM to its process tree, SIGKILL after the grace period;",
  "returns the final result.",
].join(" ");

/** Claude Code defers tools behind ToolSearch unless they carry this (HOSTS.md). */
const ALWAYS_LOAD_META = { "anthropic/alwaysLoad": true };
const LARGE_RESULT_META = {
  ...ALWAYS_LOAD_META,
  "anthropic/maxResultSizeChars": MAX_RESULT_SIZE_CHARS,
};

const READ_ONLY = { readOnlyHint: true, openWorldHint: false };

const EXEC_DESCRIPTION = [
  "Run a registered program directly, no shell: arguments reach it as given (no pipes, globs,",
  "cd, && or $VARS: use the host shell). A nonzero exitCode is a result, not a failure. Obvious",
  'fields are left out (detail "full": all). The rest of a truncated stream: system_output',
  `{ id: artifact.id, stream, offset: omittedFrom }. Running after yieldMs (default ${DEFAULT_YIELD_MS / 1000} s): status`,
  '"running" and an executionId for system_wait, system_output, system_cancel; background: true',
  "for servers.",
].join(" ");

const ENVIRONMENT_DESCRIPTION = [
  "Registered programs, the Roots a cwd must be in (not a sandbox), the PATH, names of variables",
  "the manifest sets, and limits. Call once when unsure what exists.",
].join(" ");

const OUTPUT_DESCRIPTION = [
  "Read the complete stdout or stderr of a run (id: artifact.id; executionId: a running one, live).",
  "Start at offset 0 (negative: from the end); pass nextOffset back until eof. grep { pattern }",
  'returns matching lines; encoding "base64" reads binary.',
].join(" ");

/** The output schemas as served (made once: every server's tools/list serves the same objects). */
const served = {
  environmentReport: servedOutputSchema(environmentReportSchema),
  outputPage: servedOutputSchema(outputPageSchema),
  executionReport: servedOutputSchema(executionReportSchema),
};

/** Every tool, in tools/list order (§3). */
export function toolDefinitions(programs: string[]): ToolDefinition[] {
  return [
    {
      name: "system_environment",
      description: ENVIRONMENT_DESCRIPTION,
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      outputSchema: served.environmentReport,
      annotations: READ_ONLY,
      _meta: ALWAYS_LOAD_META,
    },
    {
      name: "system_output",
      description: OUTPUT_DESCRIPTION,
      inputSchema: outputInputSchema,
      outputSchema: served.outputPage,
      annotations: READ_ONLY,
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_exec",
      description: EXEC_DESCRIPTION,
      inputSchema: execInputSchema(programs),
      outputSchema: served.executionReport,
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
      outputSchema: served.executionReport,
      annotations: READ_ONLY,
      _meta: LARGE_RESULT_META,
    },
    {
      name: "system_cancel",
      description: CANCEL_DESCRIPTION,
      inputSchema: cancelInputSchema,
      outputSchema: served.executionReport,
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
