// Checks tool arguments against the very schemas tools/list serves, mapping each failure to the
// field's own error code (SPEC §3 "Argument validation").

import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import { CommandError, describeValue, quoteValue, type ErrorCode } from "../errors.js";
import { IGNORED_HOST_ARGUMENT } from "../limits.js";
import {
  ARGUMENT_AJV_OPTIONS,
  precompiledCheck,
  type ArgumentCheck,
} from "./precompiled-validators.js";
import type { ToolDefinition } from "./tools.js";

const require = createRequire(import.meta.url);
type AjvClass = typeof import("ajv").default;

/** The code a failing field reports; any other field is INVALID_REQUEST. */
const FIELD_CODES: Record<string, ErrorCode> = {
  program: "PROGRAM_NOT_REGISTERED",
  timeoutMs: "INVALID_TIMEOUT",
  args: "INVALID_ARGUMENT",
  input: "INVALID_INPUT",
  offset: "INVALID_OUTPUT_OFFSET",
  id: "ARTIFACT_NOT_FOUND",
  yieldMs: "INVALID_YIELD",
  waitMs: "INVALID_WAIT",
  until: "INVALID_PATTERN",
  executionId: "EXECUTION_NOT_FOUND",
};

/** Where a validator comes from: the build's precompiled module when it matches, else ajv. */
export type ValidatorSource = "precompiled-or-ajv" | "ajv";

/** A compiled validator per tool. */
export class ArgumentValidator {
  private readonly validators = new Map<string, ArgumentCheck>();
  /** One Ajv for every tool, loaded only when a schema has no precompiled validator. */
  private ajv: InstanceType<AjvClass> | undefined;

  /** `unregistered` adds the administrator's hint to an unknown program name (§5). */
  constructor(
    private readonly tools: ToolDefinition[],
    private readonly unregistered: (name: unknown) => string = () => "",
    private readonly source: ValidatorSource = "precompiled-or-ajv",
  ) {}

  /** Returns the arguments when valid; throws the field's coded error otherwise. */
  check(tool: string, args: unknown): Record<string, unknown> {
    const validate = this.validator(tool);
    const value = withoutHostHint(args ?? {});
    if (validate(value)) return value as Record<string, unknown>;
    throw toCommandError(validate.errors ?? [], value, this.unregistered);
  }

  /** Whether every tool is checked by a precompiled validator (no ajv at run time). */
  allPrecompiled(): boolean {
    return this.tools.every((t) => precompiledCheck(t.name, t.inputSchema) !== undefined);
  }

  private validator(tool: string): ArgumentCheck {
    let validate = this.validators.get(tool);
    if (!validate) {
      const definition = this.tools.find((t) => t.name === tool);
      if (!definition) throw new Error(`no tool ${tool}`);
      const schema = definition.inputSchema;
      validate = this.source === "ajv" ? undefined : precompiledCheck(tool, schema);
      validate ??= this.compile(schema);
      this.validators.set(tool, validate);
    }
    return validate;
  }

  /** The slow path (a schema changed since the build, or no build): ajv compiles it here. */
  private compile(schema: Record<string, unknown>): ArgumentCheck {
    if (this.ajv === undefined) {
      const module = require("ajv") as { default?: AjvClass } & AjvClass;
      const Ajv = module.default ?? module;
      this.ajv = new Ajv(ARGUMENT_AJV_OPTIONS);
    }
    return this.ajv.compile(schema);
  }
}

/** The arguments without Gemini CLI's boolean `wait_for_previous` (§3: accepted and ignored). */
function withoutHostHint(args: unknown): unknown {
  if (args === null || typeof args !== "object" || !Object.hasOwn(args, IGNORED_HOST_ARGUMENT)) {
    return args;
  }
  const { [IGNORED_HOST_ARGUMENT]: hint, ...rest } = args as Record<string, unknown>;
  if (typeof hint !== "boolean") {
    throw new CommandError(
      "INVALID_REQUEST",
      `${IGNORED_HOST_ARGUMENT} must be a boolean (it is ignored), got ${describeValue(hint)}`,
    );
  }
  return rest;
}

/** The top-level field an error is about. */
function fieldOf(error: ErrorObject): string {
  const top = error.instancePath.split("/")[1];
  if (top) return top; // inside a field (e.g. /until/bogus): that field's code
  if (error.keyword === "required") return String(error.params.missingProperty);
  return "";
}

function describe(
  error: ErrorObject,
  value: unknown,
  unregistered: (name: unknown) => string,
): string {
  const field = fieldOf(error);
  if (error.keyword === "additionalProperties") {
    const key = String(error.params.additionalProperty);
    return `unknown argument ${quoteValue(key)}; remove it (see the tool's input schema)`;
  }
  if (error.keyword === "required") return `${field} is required`;
  const where = error.instancePath || "arguments";
  const got = describeValue(pick(value, error.instancePath));
  if (error.keyword === "enum" && field === "program") {
    const names = (error.params.allowedValues as string[]).join(", ");
    const hint = unregistered(pick(value, error.instancePath));
    return `program must be one of the registered programs (${names}), got ${got}${hint ? `. ${hint}` : ""}`;
  }
  if (error.keyword === "enum") {
    const allowed = (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
    return `${where} must be one of ${allowed.join(", ")}, got ${got}`;
  }
  return `${where} ${error.message ?? "is invalid"}, got ${got}`;
}

function toCommandError(
  errors: ErrorObject[],
  value: unknown,
  unregistered: (name: unknown) => string,
): CommandError {
  const coded = errors.find((e) => FIELD_CODES[fieldOf(e)] !== undefined);
  const chosen = coded ?? errors[0];
  if (!chosen) return new CommandError("INVALID_REQUEST", "arguments are invalid");
  const code = FIELD_CODES[fieldOf(chosen)] ?? "INVALID_REQUEST";
  return new CommandError(code, describe(chosen, value, unregistered));
}

function pick(value: unknown, pointer: string): unknown {
  let current = value;
  for (const part of pointer.split("/").slice(1)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
