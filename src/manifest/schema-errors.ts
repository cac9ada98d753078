// Turns ajv errors into INVALID_MANIFEST messages: the JSON path of the field, what was expected, what was got.

import type { ErrorObject } from "ajv/dist/2020.js";

/** How many problems one INVALID_MANIFEST message lists. */
export const MAX_REPORTED_PROBLEMS = 5;

/** Longest rendering of a manifest string in a message. */
const MAX_SHOWN_STRING_CHARS = 80;

/** Keywords that only summarise errors reported by their sub-schemas. */
const SUMMARY_KEYWORDS = new Set(["if", "oneOf", "anyOf", "propertyNames"]);

/** What a named pattern of the schema means, by the $defs entry that declares it. */
const PATTERN_MEANINGS: Record<string, string> = {
  programName: "a program name: a letter, then at most 31 letters, digits, _ or -",
  environmentName: "an environment variable name (non-empty, without = or NUL)",
  absoluteOrHomePath: "an absolute path or a ~/ path",
  absoluteOrHomePosixPath: "an absolute POSIX path or a ~/ path",
  rootRelativePath: "a path relative to the Root, without .. segments",
  defaultVersion: "an exact version such as 22.14.0 (an optional leading v)",
  cwd: "an absolute path",
};

/** JSON Schema type names in words. */
const TYPE_WORDS: Record<string, string> = {
  object: "an object",
  array: "an array",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean (true or false)",
  "string,object": 'a string or an object { "fromEnvironment": NAME, "required"?: boolean }',
};

/** The Project Node field of each manifest version: the other version's field is misplaced, not unknown. */
const VERSIONED_NODE_FIELDS: Record<string, string> = {
  projectNode: "nodeResolution",
  nodeResolution: "projectNode",
};

/** Escapes one key for a JSON Pointer (RFC 6901). */
export function escapePointerSegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Renders a manifest value for a message; strings under an environment layer are never shown. */
export function describeValue(value: unknown, pointer: string): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length} item(s)`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    if (pointer.includes("/environment/")) return "a string";
    const shown = JSON.stringify(value);
    if (shown.length <= MAX_SHOWN_STRING_CHARS) return shown;
    return `${shown.slice(0, MAX_SHOWN_STRING_CHARS)}…"`;
  }
  return String(value);
}

/** The JSON path an error is about: the offending key itself where there is one. */
function errorPointer(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const base = error.instancePath;
  if (error.propertyName !== undefined) {
    return `${base}/${escapePointerSegment(error.propertyName)}`;
  }
  if (error.keyword === "additionalProperties") {
    return `${base}/${escapePointerSegment(String(params.additionalProperty))}`;
  }
  if (error.keyword === "required") {
    return `${base}/${escapePointerSegment(String(params.missingProperty))}`;
  }
  return base === "" ? "/" : base;
}

/** The meaning of a failed `pattern`, named by where the pattern is declared. */
function patternMeaning(error: ErrorObject): string {
  const segments = error.schemaPath.split("/");
  for (let index = segments.length - 1; index >= 0; index -= 1) {
    const meaning = PATTERN_MEANINGS[segments[index] ?? ""];
    if (meaning !== undefined) return meaning;
  }
  return `a string matching ${String((error.params as { pattern?: unknown }).pattern)}`;
}

/** What the failed keyword expected, in words. */
function expectation(error: ErrorObject, pointer: string): string {
  const params = error.params as Record<string, unknown>;
  const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
  const got = (): string => describeValue(error.data, pointer);
  switch (error.keyword) {
    case "additionalProperties": {
      const allowed = Object.keys((schema.properties ?? {}) as object);
      const field = String(params.additionalProperty);
      const counterpart = VERSIONED_NODE_FIELDS[field];
      if (counterpart !== undefined && allowed.includes(counterpart)) {
        const owner = field === "projectNode" ? "version 2" : "version 1";
        return `"${field}" belongs to ${owner} manifests; this version uses "${counterpart}" (migrate-manifest converts version 1 to 2)`;
      }
      if (field === "bwrapPath") {
        return `"bwrapPath" is a field of the top-level "sandbox" only; expected one of: ${allowed.join(", ")}`;
      }
      return `unknown field; expected one of: ${allowed.join(", ")}`;
    }
    case "required":
      if (params.missingProperty === "version") return "required field is missing; expected 1 or 2";
      return "required field is missing";
    case "type": {
      const type = String(params.type);
      return `expected ${TYPE_WORDS[type] ?? type}, got ${got()}`;
    }
    case "const":
      return `expected ${JSON.stringify(params.allowedValue)}, got ${got()}`;
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((value) => JSON.stringify(value));
      return `expected one of ${allowed.join(", ")}, got ${got()}`;
    }
    case "minimum":
    case "maximum":
      return `expected an integer from ${String(schema.minimum)} to ${String(schema.maximum)}, got ${got()}`;
    case "minItems":
      return `expected at least ${String(params.limit)} item(s), got ${got()}`;
    case "maxItems":
      return `expected at most ${String(params.limit)} item(s), got ${got()}`;
    case "minLength":
      return "expected a non-empty string";
    case "pattern":
      if (error.propertyName !== undefined) {
        return `invalid name; expected ${patternMeaning(error)}`;
      }
      return `expected ${patternMeaning(error)}, got ${got()}`;
    default:
      return `${error.message ?? "is invalid"} (${error.keyword})`;
  }
}

/** One line per distinct problem, summary keywords dropped. */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    if (SUMMARY_KEYWORDS.has(error.keyword)) continue;
    // The `null` branch of a nullable object (a sandbox) only adds noise beside the real problem.
    const type = (error.params as { type?: unknown }).type;
    if (error.keyword === "type" && type === "null" && errors.length > 1) continue;
    const pointer = errorPointer(error);
    const line = `${pointer}: ${expectation(error, pointer)}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return lines;
}

/** Joins problem lines into one message, the first few in full. */
export function summariseProblems(lines: readonly string[]): string {
  const shown = lines.slice(0, MAX_REPORTED_PROBLEMS);
  const hidden = lines.length - shown.length;
  const suffix = hidden > 0 ? `; and ${hidden} more problem(s)` : "";
  return `${shown.join("; ")}${suffix}`;
}
