// Validates a manifest against the shipped JSON Schema with ajv, compiled once per process (SPEC §9).
// A valid manifest is checked by the validator the build precompiled from the same schema file
// (when the text it was built from is the file's); ajv itself is loaded only to compile, or to
// explain a failure.

import { createRequire } from "node:module";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { loadBuildModule } from "../build-module.js";
import { CommandError } from "../errors.js";
import { packagePath } from "../package-root.js";
import { AJV_OPTIONS } from "./ajv-options.js";
import { readManifestSchemaText } from "./schema-file.js";
import { describeSchemaErrors, describeValue, summariseProblems } from "./schema-errors.js";
import type { Manifest } from "./types.js";

/** The manifest versions, each a branch of the schema's root `oneOf`. */
export const MANIFEST_VERSIONS = [1, 2] as const;

const require = createRequire(import.meta.url);

/** Where the build puts the precompiled validator. */
const PRECOMPILED_VALIDATOR = packagePath("dist", "manifest", "manifest-schema.validator.cjs");

interface CompiledSchema {
  ajv: Ajv2020;
  schema: Record<string, unknown>;
  root: ValidateFunction;
  branches: Map<number, ValidateFunction>;
}

let compiled: CompiledSchema | undefined;
let precompiled: ((value: unknown) => boolean) | null | undefined;

/** The build's validator for the current schema file, or null (absent, or built from another). */
function precompiledValidator(): ((value: unknown) => boolean) | null {
  if (precompiled !== undefined) return precompiled;
  precompiled = null;
  try {
    const module = loadBuildModule("validator", PRECOMPILED_VALIDATOR) as {
      default?: (value: unknown) => boolean;
      schemaText?: string;
    };
    if (typeof module.default === "function" && module.schemaText === readManifestSchemaText()) {
      precompiled = module.default;
    }
  } catch {
    // not built (tests running from src/): compile instead
  }
  return precompiled;
}

/** Compiles the root schema once per process. */
function compiledSchema(): CompiledSchema {
  if (compiled !== undefined) return compiled;
  const schema = JSON.parse(readManifestSchemaText()) as Record<string, unknown>;
  const { Ajv2020: AjvClass } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const ajv = new AjvClass(AJV_OPTIONS);
  compiled = { ajv, schema, root: ajv.compile(schema), branches: new Map() };
  return compiled;
}

/** The validator of one version's branch (the same `$defs`), compiled on first use: only after a failure. */
function branchValidator(schema: CompiledSchema, version: number): ValidateFunction | undefined {
  if (!(MANIFEST_VERSIONS as readonly number[]).includes(version)) return undefined;
  let branch = schema.branches.get(version);
  if (branch === undefined) {
    branch = schema.ajv.compile({
      $defs: schema.schema.$defs,
      $ref: `#/$defs/manifestV${version}`,
    });
    schema.branches.set(version, branch);
  }
  return branch;
}

/** The problems of the branch the manifest's own `version` selects, so messages name the real field. */
function versionedProblems(value: unknown, schema: CompiledSchema): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return [
      `/: expected a JSON object with "version" and "programs", got ${describeValue(value, "/")}`,
    ];
  }
  const version = (value as Record<string, unknown>).version;
  if (version === undefined) return ["/version: required field is missing; expected 1 or 2"];
  const branch = typeof version === "number" ? branchValidator(schema, version) : undefined;
  if (branch === undefined) {
    return [`/version: expected 1 or 2, got ${describeValue(version, "/version")}`];
  }
  branch(value);
  return describeSchemaErrors(branch.errors ?? []);
}

/** Throws INVALID_MANIFEST unless the value satisfies the shipped schema. */
export function assertSchemaValid(value: unknown): asserts value is Manifest {
  if (precompiledValidator()?.(value)) return;
  const schema = compiledSchema();
  if (schema.root(value)) return;
  let problems = versionedProblems(value, schema);
  if (problems.length === 0) problems = describeSchemaErrors(schema.root.errors ?? []);
  if (problems.length === 0) problems = ["/: does not match the manifest schema"];
  throw new CommandError("INVALID_MANIFEST", summariseProblems(problems));
}
