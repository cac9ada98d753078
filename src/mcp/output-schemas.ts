// Output schemas of the tools, inside the subset every host checks (SPEC §3, HOSTS.md). Every
// schema keeps its literal type (`as const`, `const` type parameters), so `FromSchema<>` derives
// the result types from them and mcp/server.ts can prove the runtime's results fit (SPEC §3).

import { ARTIFACT_STATUSES, ARTIFACT_UNAVAILABLE_REASONS } from "../artifacts/types.js";
import type { SandboxAdapterName } from "../confinement/types.js";
import { OUTPUT_ENCODINGS, STREAMS } from "../output/types.js";
import type { FromSchema } from "./schema-types.js";

/** A string enum from one of the stages' `as const` lists (the TypeScript unions come from them). */
const oneOf = <const V extends readonly string[]>(values: V) =>
  ({ type: "string", enum: [...values] }) as const;

const integer = { type: "integer" } as const;
const string = { type: "string" } as const;
const boolean = { type: "boolean" } as const;
const nullable = <const S extends object>(schema: S) =>
  ({ oneOf: [schema, { type: "null" }] }) as const;

// The sandbox adapters (SPEC §20), written once.
// `satisfies` ties each value to confinement's own union types.
const SANDBOX_ADAPTERS = [
  "bubblewrap",
  "seatbelt",
] as const satisfies readonly SandboxAdapterName[];

const streamOutput = {
  type: "object",
  properties: {
    truncated: boolean,
    totalBytes: integer,
    sinceOffset: { type: "integer", description: "running: text shows bytes from here on" },
    omittedBytes: integer,
    omittedFrom: {
      type: "integer",
      description: "system_output offset of the omitted bytes (limit: omittedBytes)",
    },
    lossyUtf8: boolean,
    text: string,
  },
  // Compact results (mcp/compact.ts) send a whole stream as { text }.
  required: ["text"],
  additionalProperties: false,
} as const;

/**
 * Nested objects an agent reads but a client need not check field by field are declared as
 * objects whose description lists their fields: a fully typed copy of each, in each of the three
 * execution tools, made the SDK client's Ajv compile of one report schema ~10 times slower (a
 * generated validator past a size where compilation gets slow; docs/performance.md).
 */
const looseObject = (fields: string) => ({ type: "object", description: fields }) as const;

const termination = looseObject(
  "{ reason: timeout|cancelled|null, gracefulRequested, forceUsed, treeCleaned, cleanupError?, " +
    "diagnostics: { adapter } }",
);

const artifact = {
  type: "object",
  properties: {
    status: oneOf(ARTIFACT_STATUSES),
    id: { type: "string", description: "pass to system_output to page the complete output" },
    reason: oneOf(ARTIFACT_UNAVAILABLE_REASONS),
  },
  required: ["status"],
  additionalProperties: false,
} as const;

const programSelection = looseObject(
  "what ran: { logicalName, executable, version?, requirement?, source?, adapter?, " +
    "sandbox?: { adapter, filesystem, network } }",
);

const match = {
  type: "object",
  properties: {
    stream: oneOf(STREAMS),
    offset: integer,
    text: string,
  },
  required: ["stream", "offset", "text"],
  additionalProperties: false,
} as const;

/** system_exec / system_wait / system_cancel: a completed result or a running snapshot. */
export const executionReportSchema = {
  type: "object",
  properties: {
    status: { type: "string", enum: ["completed", "running"] },
    executionId: string,
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
    cwd: string,
    match,
    artifact,
    programSelection,
    termination,
    inputBytes: integer,
    stdout: streamOutput,
    stderr: streamOutput,
  },
  // Compact results omit every field at its obvious value (mcp/compact.ts); full ones have all.
  required: ["status"],
  additionalProperties: false,
} as const;

/** system_output: one page of a stored stream. */
export const outputPageSchema = {
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
  // A compact page leaves out encoding "utf8" and lossyUtf8 false (mcp/compact.ts).
  required: ["offset", "bytes", "nextOffset", "eof"],
  additionalProperties: false,
} as const;

const stringList = { type: "array", items: string } as const;

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
] as const;

/** One integer property per limit, in the order above. */
const limitProperties = Object.fromEntries(limitNames.map((name) => [name, integer])) as {
  [Name in (typeof limitNames)[number]]: typeof integer;
};

/** system_environment. */
export const environmentReportSchema = {
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
    // Every limit is always there, but not listed in `required`: 21 required names beside
    // additionalProperties: false made the SDK client's Ajv compile of this schema ~5× slower.
    limits: {
      type: "object",
      properties: limitProperties,
      additionalProperties: false,
    },
    policy: {
      type: "object",
      description:
        "whether the manifest's rules can hold as a whole (SPEC §21.1): advisoryBecause names " +
        "the code-running programs that could get around them",
      properties: {
        rulesEnforcement: { type: "string", enum: ["advisory", "strict"] },
        rulesEnforceable: { type: "boolean" },
        advisoryBecause: stringList,
      },
      required: ["rulesEnforcement", "rulesEnforceable", "advisoryBecause"],
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
        adapter: oneOf(SANDBOX_ADAPTERS),
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
    "policy",
    "audit",
  ],
  additionalProperties: false,
} as const;

/** What system_exec, system_wait and system_cancel return, as their output schema describes it. */
export type ExecutionReportResult = FromSchema<typeof executionReportSchema>;
/** What system_output returns (a page, or a grep search). */
export type OutputPageResult = FromSchema<typeof outputPageSchema>;
/** What system_environment returns. */
export type EnvironmentReportResult = FromSchema<typeof environmentReportSchema>;
