// Locates and reads the shipped manifest JSON Schema, the single source of truth (SPEC §9).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Both src/manifest/*.ts and dist/manifest/*.js sit two levels below the repository root. */
export const MANIFEST_SCHEMA_URL = new URL(
  "../../system-command-manifest.schema.json",
  import.meta.url,
);

/** The absolute path of the shipped schema file. */
export function manifestSchemaPath(): string {
  return fileURLToPath(MANIFEST_SCHEMA_URL);
}

/** The shipped schema file's text. */
export function readManifestSchemaText(): string {
  return readFileSync(MANIFEST_SCHEMA_URL, "utf8");
}

/** Reads and parses the shipped schema file; a broken installation is a programming error. */
export function readManifestSchema(): Record<string, unknown> {
  const text = readFileSync(MANIFEST_SCHEMA_URL, "utf8");
  return JSON.parse(text) as Record<string, unknown>;
}
