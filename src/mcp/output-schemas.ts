// Output schemas of the tools, inside the subset every host checks (SPEC §3, HOSTS.md).

import { ARTIFACT_STATUSES, ARTIFACT_UNAVAILABLE_REASONS } from "../artifacts/types.js";
import { OUTPUT_ENCODINGS, STREAMS } from "../output/types.js";
import { CLEANUP_ERRORS, TERMINATION_ADAPTERS, TERMINATION_REASONS } from "../process/types.js";
import { ARTIFACT_POLICIES } from "../programs/types.js";

type Schema = Record<string, unknown>;

/** A string enum from one of the stages' `as const` lists (the TypeScript unions come from them). */
const oneOf = (values: readonly string[]): Schema => ({ type: "string", enum: [...values] });

const integer: Schema = { type: "integer" };
const string: Schema = { type: "string" };
const boolean: Schema = { type: "boolean" };
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: "null" }] });

const streamOutput: Schema = {
  type: "object",
  description: "Head and tail of one stream with exact byte accounting.",
  properties: {
    truncated: boolean,
    totalBytes: integer,
    omittedBytes: integer,
    lossyUtf8: { type: "boolean", description: "some byte of the stream was not valid UTF-8" },
    text: { type: "string", description: "head + omission marker + tail when truncated" },
  },
  required: ["truncated", "totalBytes", "omittedBytes", "lossyUtf8", "text"],
  additionalProperties: false,
};

const termination: Schema = {
  type: "object",
  properties: {
    reason: { oneOf: [oneOf(TERMINATION_REASONS), { type: "null" }] },
    gracefulRequested: boolean,
    forceUsed: boolean,
    treeCleaned: nullable(boolean),
    cleanupError: oneOf(CLEANUP_ERRORS),
    diagnostics: {
      type: "object",
      properties: {
        adapter: oneOf(TERMINATION_ADAPTERS),
      },
      required: ["adapter"],
      additionalProperties: true,
    },
  },
  required: ["reason", "gracefulRequested", "forceUsed", "treeCleaned", "diagnostics"],
  additionalProperties: false,
};

const artifact: Schema = {
  type: "object",
  properties: {
    status: oneOf(ARTIFACT_STATUSES),
    id: { type: "string", description: "pass to system_output to page the complete output" },
    reason: oneOf(ARTIFACT_UNAVAILABLE_REASONS),
  },
  required: ["status"],
  additionalProperties: false,
};

const programSelection: Schema = {
  type: "object",
  properties: {
    logicalName: string,
    executable: string,
    version: string,
    requirement: string,
    source: string,
    adapter: string,
    sandbox: {
      type: "object",
      description: "how a confined run was confined (SPEC §20)",
      properties: {
        adapter: { type: "string", enum: ["bubblewrap", "seatbelt"] },
        filesystem: { type: "string", enum: ["read-only", "workspace-write", "full"] },
        network: { type: "string", enum: ["allow", "deny"] },
      },
      required: ["adapter", "filesystem", "network"],
      additionalProperties: false,
    },
  },
  required: ["logicalName", "executable"],
  additionalProperties: false,
};

const match: Schema = {
  type: "object",
  properties: {
    stream: oneOf(STREAMS),
    offset: integer,
    text: string,
  },
  required: ["stream", "offset", "text"],
  additionalProperties: false,
};

/** system_exec / system_wait / system_cancel: a completed result or a running snapshot. */
export const executionReportSchema: Schema = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["completed", "running"] },
    executionId: { type: "string", description: "32 lowercase hex characters" },
    exitCode: nullable(integer),
    signal: nullable(string),
    timedOut: boolean,
    cancelled: boolean,
    durationMs: integer,
    elapsedMs: integer,
    timeoutMs: {
      type: "integer",
      description: "running: the tree is killed this long after spawn",
    },
    cwd: { type: "string", description: "the physical directory the process started in" },
    match,
    artifact,
    programSelection,
    termination,
    inputBytes: integer,
    stdout: streamOutput,
    stderr: streamOutput,
  },
  required: ["status", "executionId", "cwd", "programSelection", "stdout", "stderr"],
  additionalProperties: false,
};

/** system_output: one page of a stored stream. */
export const outputPageSchema: Schema = {
  type: "object",
  properties: {
    offset: { type: "integer", description: "absolute start of the page" },
    bytes: integer,
    nextOffset: integer,
    eof: boolean,
    encoding: oneOf(OUTPUT_ENCODINGS),
    text: string,
    lossyUtf8: boolean,
    base64: string,
    matches: {
      type: "array",
      description: "grep: matching lines (offset of the line start, 1-based line, text ≤ 1 KiB)",
      items: {
        type: "object",
        properties: { offset: integer, line: integer, text: string },
        required: ["offset", "line", "text"],
        additionalProperties: false,
      },
    },
    truncated: { type: "boolean", description: "grep: maxMatches stopped the scan" },
    scanLimited: { type: "boolean", description: "grep: the per-call budget stopped the scan" },
  },
  required: ["offset", "bytes", "nextOffset", "eof", "encoding"],
  additionalProperties: false,
};

const policy: Schema = {
  type: "object",
  properties: {
    defaultTimeoutMs: integer,
    maxTimeoutMs: integer,
    allowStdin: boolean,
    gracePeriodMs: integer,
    finalTerminationWaitMs: integer,
    artifactPolicy: oneOf(ARTIFACT_POLICIES),
    allowBackground: boolean,
    maxBackgroundTimeoutMs: integer,
  },
  required: [
    "defaultTimeoutMs",
    "maxTimeoutMs",
    "allowStdin",
    "gracePeriodMs",
    "finalTerminationWaitMs",
    "artifactPolicy",
  ],
  additionalProperties: false,
};

const stringList: Schema = { type: "array", items: string };

const variantSet: Schema = {
  type: "object",
  properties: {
    kind: { type: "string", const: "node-project" },
    variants: {
      type: "array",
      items: {
        type: "object",
        properties: { version: string, executable: string, npmCli: string, npxCli: string },
        required: ["version", "executable"],
        additionalProperties: false,
      },
    },
    fallbackExecutable: string,
  },
  required: ["kind", "variants", "fallbackExecutable"],
  additionalProperties: false,
};

const sandboxPolicy: Schema = {
  type: "object",
  description: "the effective sandbox of a confined program (SPEC §20)",
  properties: {
    filesystem: { type: "string", enum: ["read-only", "workspace-write", "full"] },
    writablePaths: stringList,
    hiddenPaths: stringList,
    protectedPaths: stringList,
    network: { type: "string", enum: ["allow", "deny"] },
  },
  required: ["filesystem", "writablePaths", "hiddenPaths", "protectedPaths", "network"],
  additionalProperties: false,
};

/** One entry of system_environment.programs (documented; hosts only take boolean additionalProperties). */
export const programReportSchema: Schema = {
  type: "object",
  properties: {
    executable: string,
    declaredCandidate: string,
    kind: { type: "string", enum: ["native", "cmd-script"] },
    argumentSemantics: { type: "string", enum: ["literal", "cmd-reparsed"] },
    required: boolean,
    policy,
    path: stringList,
    variantSet,
    sandbox: nullable(sandboxPolicy),
  },
  required: ["executable", "declaredCandidate", "kind", "argumentSemantics", "required", "policy"],
  additionalProperties: false,
};

const limitNames = [
  "maxConcurrentExecutions",
  "defaultTimeoutMs",
  "maxTimeoutMs",
  "maxOutputBytes",
  "inlineBudgetBytes",
  "inlineHeadBytes",
  "maxArgs",
  "maxArgBytes",
  "maxArgsTotalBytes",
  "maxInputBytes",
  "artifactRetentionMs",
  "artifactQuotaBytes",
  "artifactMaxStreamBytes",
  "outputPageMaxBytes",
  "outputPageMaxUtf8Bytes",
  "outputPageDefaultBytes",
  "defaultYieldMs",
  "maxBackgroundExecutions",
  "maxWaitMs",
  "handleRetentionMs",
  "handleRetentionCount",
];

/** system_environment. */
export const environmentReportSchema: Schema = {
  type: "object",
  properties: {
    server: {
      type: "object",
      properties: { name: string, version: string },
      required: ["name", "version"],
      additionalProperties: false,
    },
    platform: string,
    arch: string,
    mode: { type: "string", enum: ["configured", "automatic-discovery"] },
    cwd: string,
    roots: stringList,
    programs: {
      type: "object",
      description:
        "keyed by Logical Program: { executable, declaredCandidate, kind, argumentSemantics, " +
        "required, policy, path?, variantSet?, rules?, sandbox (null when unconfined) }",
      additionalProperties: true,
    },
    path: stringList,
    environmentNames: stringList,
    removedByPattern: stringList,
    limits: {
      type: "object",
      properties: Object.fromEntries(limitNames.map((name) => [name, integer])),
      required: limitNames,
      additionalProperties: false,
    },
    audit: {
      description: "the audit log in use (§22), or null when it is off",
      oneOf: [
        {
          type: "object",
          properties: {
            path: string,
            args: { type: "string", enum: ["digest", "full"] },
            sealed: { type: "boolean", description: "a seal state is beside the log (§22.1)" },
            syslog: {
              description: "where each record's copy is sent (§22.1), or null",
              oneOf: [{ type: "string" }, { type: "null" }],
            },
          },
          required: ["path", "args", "sealed", "syslog"],
          additionalProperties: false,
        },
        { type: "null" },
      ],
    },
    sandbox: nullable({
      type: "object",
      description: "the confinement adapter in use (SPEC §20); null when no program is confined",
      properties: {
        adapter: { type: "string", enum: ["bubblewrap", "seatbelt"] },
        version: string,
        path: string,
      },
      required: ["adapter", "version", "path"],
      additionalProperties: false,
    }),
  },
  required: [
    "server",
    "platform",
    "arch",
    "mode",
    "cwd",
    "roots",
    "programs",
    "path",
    "environmentNames",
    "removedByPattern",
    "limits",
    "audit",
  ],
  additionalProperties: false,
};
