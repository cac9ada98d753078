// The single list of error codes (SPEC §5, §12, §13, §19) and the one error type that carries them.

/** The CLI's usage errors (§13): these exit 2, every other CommandError of the CLI exits 1. */
export const USAGE_ERROR_CODES = [
  "ROOT_REQUIRED",
  "MANIFEST_REQUIRED",
  "UNKNOWN_COMMAND",
  "UNKNOWN_OPTION",
  "INVALID_OPTION",
  "TTY_REQUIRED",
] as const;

export const ERROR_CODES = [
  // per request
  "INVALID_REQUEST",
  "RUNTIME_CLOSING",
  "CONCURRENCY_LIMIT",
  "PROGRAM_NOT_REGISTERED",
  "INVALID_ARGUMENT",
  "UNSAFE_CMD_SCRIPT_ARGUMENT",
  "INVALID_TIMEOUT",
  "INVALID_INPUT",
  "ROOT_UNAVAILABLE",
  "CWD_NOT_FOUND",
  "CWD_NOT_ALLOWED",
  "CWD_CHANGED",
  "SPAWN_FAILED",
  "ARTIFACT_NOT_FOUND",
  "INVALID_OUTPUT_OFFSET",
  "INVALID_OUTPUT_PAGE",
  // Project Node, per request
  "NODE_DECLARATION_INVALID",
  "NODE_VERSION_REQUIREMENT_INVALID",
  "NODE_VERSION_UNAVAILABLE",
  "PROJECT_NODE_DECLARATION_CONFLICT",
  "PROJECT_NODE_VERSION_UNAVAILABLE",
  "PROJECT_NODE_RANGE_UNSATISFIED",
  "PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE",
  "PROJECT_NPM_UNAVAILABLE",
  "PROJECT_NPX_UNAVAILABLE",
  "NODE_VARIANT_CHANGED",
  // Project Node, startup
  "PROJECT_NODE_ROOT_UNAVAILABLE",
  "PROJECT_NODE_ROOT_NOT_AUTHORIZED",
  "NODE_VARIANTS_UNAVAILABLE",
  "NODE_RESOLUTION_NODE_REQUIRED",
  // long-running work
  "EXECUTION_NOT_FOUND",
  "BACKGROUND_NOT_ALLOWED",
  "BACKGROUND_LIMIT",
  "INVALID_YIELD",
  "INVALID_WAIT",
  "INVALID_PATTERN",
  "OUTPUT_CAP_EXCEEDED",
  // argument rules, approvals and the audit log (§21, §22; AUDIT_UNAVAILABLE also at startup)
  "ARGUMENTS_DENIED",
  "APPROVAL_REQUIRED",
  "APPROVAL_DENIED",
  "AUDIT_UNAVAILABLE",
  // startup / configuration
  "ROOT_NOT_DIRECTORY",
  "MANIFEST_READ_FAILED",
  "MANIFEST_JSON_INVALID",
  "MANIFEST_DIRECTORY_REQUIRED",
  "INVALID_MANIFEST",
  "MISSING_ENVIRONMENT_REFERENCE",
  "REQUIRED_PROGRAM_UNAVAILABLE",
  "NO_PROGRAMS_REGISTERED",
  "INVALID_RUNTIME_CONFIG",
  "SANDBOX_UNAVAILABLE",
  "RULES_NOT_ENFORCEABLE",
  // CLI usage
  ...USAGE_ERROR_CODES,
  // CLI failures
  "MANIFEST_EXISTS",
  "PROBE_FAILED",
  "PROBE_PROGRAM_UNAVAILABLE",
  "PROBE_CWD_NOT_ALLOWED",
  "MIGRATION_NOT_APPLICABLE",
  "MIGRATION_PLATFORM_OVERRIDE_UNSUPPORTED",
  "MIGRATION_DEFAULT_VERSION_UNAVAILABLE",
  "APPROVAL_NOT_FOUND",
  "AUDIT_CHAIN_BROKEN",
  "AUDIT_SEAL_BROKEN",
  "AUDIT_SEAL_EXISTS",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error type of the product: a stable code and a message saying what was expected. */
export class CommandError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "CommandError";
    this.code = code;
  }

  /** `CODE: message`, the form tool errors and CLI errors are shown in. */
  override toString(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** Whether a value is a CommandError (also across module copies). */
export function isCommandError(value: unknown): value is CommandError {
  return value instanceof CommandError;
}

/** The errno code of a Node.js system error, or "UNKNOWN". */
export function errnoCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

/** Most characters of a request value an error message quotes (a 9 MiB cwd must not echo back). */
export const MAX_QUOTED_CHARS = 200;

/** `text` cut to its first MAX_QUOTED_CHARS characters, noting the full length when it was cut. */
export function clipText(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text;
  let end = MAX_QUOTED_CHARS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * A request value as error messages show it: JSON-quoted and cut to its first MAX_QUOTED_CHARS
 * characters (the full length noted), so that no message grows with the request.
 */
export function quoteValue(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  if (text.length <= MAX_QUOTED_CHARS) return JSON.stringify(text);
  const clipped = clipText(text);
  const cut = clipped.lastIndexOf("… (");
  return `${JSON.stringify(clipped.slice(0, cut))}${clipped.slice(cut)}`;
}

/**
 * Any value as an error message shows it ("got …"): its kind, and scalars themselves, strings
 * quoted and clipped by quoteValue. The one describe-a-value helper of the codebase.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length} item(s)`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return quoteValue(value);
  return `${typeof value} ${String(value)}`;
}
