// Compact results (docs/results.md "Compact results"): by default a result carries only what
// differs from the obvious. `full` is the whole Canonical Result, unchanged. Every field that
// stays keeps its place in the result's key order, and a field this module does not know (added
// by a later stage) is kept as it is.

import type { ExecutionReportResult, OutputPageResult } from "./output-schemas.js";

/** The two detail levels a caller can ask for, in the order the schema lists them. */
export const RESULT_DETAILS = ["compact", "full"] as const;
export type ResultDetail = (typeof RESULT_DETAILS)[number];
/** What a server serves when neither the request, the command line nor the manifest chose. */
export const DEFAULT_RESULT_DETAIL: ResultDetail = "compact";

type Fields = Record<string, unknown>;

/** What the request said that makes a field obvious to the caller. */
export interface CompactContext {
  /** The request named its cwd (system_exec with `cwd`): the caller knows where it ran. */
  cwdNamed: boolean;
}

/** Artifact states that leave nothing for the caller to read. */
const NO_ARTIFACT = new Set(["not-requested", "discarded"]);

/**
 * An execution result (completed or running) in the form `detail` asks for. Compact drops:
 * `signal` null, `timedOut`/`cancelled` false, a natural `termination`, `inputBytes` 0, an
 * `artifact` with nothing to read, the `executionId` of a completed run without an artifact,
 * `programSelection` (kept as `version`/`sandbox` only when Project Node chose a version or the
 * run was confined), `cwd` when the request named it, empty streams; a whole valid stream is
 * `{ text }`.
 */
export function compactExecution<T extends object>(
  result: T,
  detail: ResultDetail,
  context: CompactContext,
): ExecutionReportResult {
  // Built field by field, so typed by what the output schema allows (every field but status
  // optional; a stream's `text` its one required field): the runtime's result types fit it.
  const fields = result as Fields;
  if (detail === "full") return fields as ExecutionReportResult;
  const completed = fields.status === "completed";
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    const kept = compactField(key, value, fields, completed, context);
    if (kept !== OMIT) out[key] = kept;
  }
  return out as ExecutionReportResult;
}

const OMIT = Symbol("omit");

function compactField(
  key: string,
  value: unknown,
  fields: Fields,
  completed: boolean,
  context: CompactContext,
): unknown {
  switch (key) {
    case "executionId":
      return completed && !hasArtifact(fields.artifact) ? OMIT : value;
    case "signal":
      return value === null ? OMIT : value;
    case "timedOut":
    case "cancelled":
      return value === false ? OMIT : value;
    case "cwd":
      return context.cwdNamed ? OMIT : value;
    case "artifact":
      return hasArtifact(value) ? value : OMIT;
    case "programSelection":
      return compactSelection(value as Fields);
    case "termination":
      return isNaturalEnd(value as Fields) ? OMIT : value;
    case "inputBytes":
      return value === 0 ? OMIT : value;
    case "stdout":
    case "stderr":
      return compactStream(value as Fields);
    default:
      return value;
  }
}

function hasArtifact(artifact: unknown): boolean {
  const status = (artifact as Fields | undefined)?.status;
  return typeof status === "string" && !NO_ARTIFACT.has(status);
}

/** What ran is in system_environment; a chosen Node version and the confinement are not. */
function compactSelection(selection: Fields): unknown {
  const kept: Fields = {};
  if (selection.version !== undefined) kept.version = selection.version;
  if (selection.sandbox !== undefined) kept.sandbox = selection.sandbox;
  return Object.keys(kept).length > 0 ? kept : OMIT;
}

/** A natural exit: no reason, no signal sent, nothing left behind to clean up. */
function isNaturalEnd(termination: Fields): boolean {
  const diagnostics = termination.diagnostics as Fields | undefined;
  return (
    termination.reason === null &&
    termination.gracefulRequested === false &&
    termination.forceUsed === false &&
    termination.treeCleaned === null &&
    termination.cleanupError === undefined &&
    diagnostics?.adapter === "natural" &&
    Object.keys(termination).length === NATURAL_TERMINATION_KEYS &&
    Object.keys(diagnostics).length === 1
  );
}

/** reason, gracefulRequested, forceUsed, treeCleaned, diagnostics. */
const NATURAL_TERMINATION_KEYS = 5;

/**
 * Omitted when it holds nothing (no bytes, or in a running snapshot nothing new); `{ text }` when
 * the text is the whole stream, valid UTF-8.
 */
function compactStream(stream: Fields): unknown {
  const nothingLeftOut = stream.truncated === false && stream.omittedBytes === 0;
  if (nothingLeftOut && stream.text === "") return OMIT;
  const whole =
    nothingLeftOut &&
    stream.lossyUtf8 === false &&
    (stream.sinceOffset === undefined || stream.sinceOffset === 0);
  if (!whole) return stream;
  const kept: Fields = { text: stream.text };
  for (const key of Object.keys(stream)) {
    if (!WHOLE_STREAM_KEYS.has(key)) kept[key] = stream[key];
  }
  return kept;
}

/** The fields a whole stream's `{ text }` stands for; any other field is kept. */
const WHOLE_STREAM_KEYS = new Set([
  "truncated",
  "totalBytes",
  "omittedBytes",
  "lossyUtf8",
  "sinceOffset",
  "text",
]);

/** A system_output page in the form `detail` asks for: `lossyUtf8` only when true, `encoding` only when not utf8. */
export function compactPage<T extends object>(page: T, detail: ResultDetail): OutputPageResult {
  const fields = page as Fields;
  if (detail === "full") return fields as OutputPageResult;
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === "lossyUtf8" && value === false) continue;
    if (key === "encoding" && value === "utf8") continue;
    out[key] = value;
  }
  return out as OutputPageResult;
}
