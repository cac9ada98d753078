// The tool-argument validators the build precompiled (scripts/build-tool-validators.mjs), and the
// one check they leave to run time: system_exec's `program` enum, the server's registered programs.
// Each is used only while the schema it was built from is, text for text, the one tools/list
// serves (minus that enum); otherwise ArgumentValidator compiles the served schema with ajv.

import type { ErrorObject } from "ajv";
import { loadBuildModule } from "../build-module.js";
import { packagePath } from "../package-root.js";

/** The options every tool schema is compiled with, at build time and at run time alike. */
export const ARGUMENT_AJV_OPTIONS = { allErrors: true, strict: true } as const;

/** Where the build puts the precompiled validators. */
const PRECOMPILED_MODULE = packagePath("dist", "mcp", "tool-validators.cjs");

/** The property whose enum is filled in at run time. */
const PROGRAM_FIELD = "program";

/** A validator in ajv's calling convention (errors on the function after a failed call). */
export interface ArgumentCheck {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

interface PrecompiledModule {
  schemaTexts?: Record<string, string>;
  [tool: string]: unknown;
}

type Schema = Record<string, unknown>;

let loaded: PrecompiledModule | null | undefined;

/** The build's module, or null when there is none (tests running from src/ before a build). */
function precompiledModule(): PrecompiledModule | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = loadBuildModule("tool-validators", PRECOMPILED_MODULE) as PrecompiledModule;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** The schema as the build compiles it: system_exec's `program` without its run-time enum. */
export function schemaWithoutProgramEnum(schema: Schema): Schema {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const program = properties?.[PROGRAM_FIELD];
  if (program === undefined || !("enum" in program)) return schema;
  const { enum: _programs, ...rest } = program;
  return { ...schema, properties: { ...properties, [PROGRAM_FIELD]: rest } };
}

/** The precompiled check of one tool's served schema, or undefined when none matches it. */
export function precompiledCheck(tool: string, schema: Schema): ArgumentCheck | undefined {
  const module = precompiledModule();
  const validate = module?.[tool];
  if (typeof validate !== "function") return undefined;
  const built = schemaWithoutProgramEnum(schema);
  if (module?.schemaTexts?.[tool] !== JSON.stringify(built)) return undefined;
  const programs = programEnum(schema);
  if (programs === undefined) return validate as ArgumentCheck;
  return withProgramEnum(validate as ArgumentCheck, programs, Object.keys(built.properties ?? {}));
}

function programEnum(schema: Schema): readonly string[] | undefined {
  const properties = schema.properties as Record<string, Schema> | undefined;
  const values = properties?.[PROGRAM_FIELD]?.enum;
  return Array.isArray(values) ? (values as string[]) : undefined;
}

/**
 * Adds the enum check to a validator compiled without it, with the error ajv itself reports, in
 * the place ajv puts it (after the object-level errors and those of the properties before it).
 */
function withProgramEnum(
  validate: ArgumentCheck,
  programs: readonly string[],
  order: string[],
): ArgumentCheck {
  const rank = (error: ErrorObject): number => {
    const field = error.instancePath.split("/")[1];
    return field === undefined ? -1 : order.indexOf(field);
  };
  const programRank = order.indexOf(PROGRAM_FIELD);
  const check: ArgumentCheck = (value) => {
    const valid = validate(value);
    const errors = valid ? [] : [...(validate.errors ?? [])];
    const program = isObject(value) ? value[PROGRAM_FIELD] : undefined;
    if (program !== undefined && !programs.includes(program as string)) {
      const at = errors.findIndex((error) => rank(error) > programRank);
      errors.splice(at === -1 ? errors.length : at, 0, enumError(programs));
    }
    check.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return check;
}

function enumError(programs: readonly string[]): ErrorObject {
  return {
    instancePath: `/${PROGRAM_FIELD}`,
    schemaPath: `#/properties/${PROGRAM_FIELD}/enum`,
    keyword: "enum",
    params: { allowedValues: programs },
    message: "must be equal to one of the allowed values",
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
