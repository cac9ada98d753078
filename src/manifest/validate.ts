// validateManifest: the shipped schema first, then the semantic rules (SPEC §9).

import { assertManifestSemantics } from "./semantic-checks.js";
import { assertSchemaValid } from "./schema-validator.js";
import type { Manifest } from "./types.js";

/** Throws CommandError INVALID_MANIFEST (with the JSON path of the field) unless the value is a valid manifest. */
export function validateManifest(value: unknown): asserts value is Manifest {
  assertSchemaValid(value);
  assertManifestSemantics(value);
}
