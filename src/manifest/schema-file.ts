// Locates and reads the shipped manifest JSON Schema, the single source of truth (SPEC §9).

import { readFileSync } from "node:fs";
import { packagePath } from "../package-root.js";

/** The schema file's name at the package root. */
export const MANIFEST_SCHEMA_FILE = "system-command-manifest.schema.json";

/** The absolute path of the shipped schema file. */
export function manifestSchemaPath(): string {
  return packagePath(MANIFEST_SCHEMA_FILE);
}

/** The shipped schema file's text. */
export function readManifestSchemaText(): string {
  return readFileSync(manifestSchemaPath(), "utf8");
}
