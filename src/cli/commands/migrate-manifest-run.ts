// `migrate-manifest`: v1 `nodeResolution` → v2 `projectNode`, written next to the input and
// never over an existing file (SPEC §12, §13).

import { existsSync } from "node:fs";
import path from "node:path";
import { CommandError, isCommandError } from "../../errors.js";
import { readManifestFile } from "../../manifest/load.js";
import type { Manifest } from "../../manifest/types.js";
import { validateManifest } from "../../manifest/validate.js";
import { migrateManifestObject } from "../../node/index.js";
import { loadCatalog } from "../../programs/load-catalog.js";
import { normalizeRoots } from "../../roots/roots.js";
import type { CommonOptions } from "../options.js";
import { requireManifest } from "./requirements.js";
import { manifestExists, manifestText, writeNewFile } from "./write-new-file.js";

/** Appended to INPUT when no OUTPUT is given. */
export const MIGRATED_SUFFIX = ".v2.json";

const OVERWRITE_HINT = "migrate-manifest never overwrites; give another OUTPUT or move the file";

/** Validates a manifest, naming what it is in INVALID_MANIFEST messages. */
function validateNamed(value: unknown, what: string): asserts value is Manifest {
  try {
    validateManifest(value);
  } catch (error) {
    if (!isCommandError(error) || error.code !== "INVALID_MANIFEST") throw error;
    throw new CommandError("INVALID_MANIFEST", `${what}: ${error.message}`);
  }
}

/** Whether the migration needs the static node program (an enabled v1 nodeResolution). */
function needsStaticNode(manifest: Manifest): boolean {
  return manifest.version === 1 && manifest.nodeResolution?.enabled === true;
}

/** The real path of the registered static `node`, loading the input exactly as startup would. */
async function staticNodeRealPath(inputFile: string): Promise<string | undefined> {
  const catalog = await loadCatalog({ manifestPath: inputFile, startupEnv: process.env });
  return catalog.programs.get("node")?.executable;
}

/** Runs migrate-manifest; resolves to the exit code. */
export async function runMigrateManifest(
  input: string | undefined,
  output: string | undefined,
  options: CommonOptions,
): Promise<number> {
  const source = requireManifest(
    input ?? options.manifest,
    "migrate-manifest",
    "give INPUT, a version 1 manifest with nodeResolution",
  );
  const givenRoots = options.root ?? [];
  if (givenRoots.length === 0) {
    throw new CommandError(
      "ROOT_REQUIRED",
      "migrate-manifest needs at least one --root <dir> (the Roots become projectNode.enabledRoots), got none",
    );
  }
  const inputFile = path.resolve(source);
  const outputFile = path.resolve(output ?? `${source}${MIGRATED_SUFFIX}`);
  if (existsSync(outputFile)) throw manifestExists(outputFile, OVERWRITE_HINT);
  const value = await readManifestFile(inputFile);
  validateNamed(value, `manifest "${inputFile}"`);
  const roots = normalizeRoots(givenRoots).map((root) => root.path);
  const nodePath = needsStaticNode(value) ? await staticNodeRealPath(inputFile) : undefined;
  const migrated = await migrateManifestObject(value as unknown as Record<string, unknown>, {
    roots,
    ...(nodePath !== undefined && { staticNodeRealPath: nodePath }),
    env: process.env,
  });
  validateNamed(migrated, `the migrated manifest for ${outputFile}`);
  await writeNewFile(outputFile, manifestText(migrated), {
    overwrite: false,
    howToOverwrite: OVERWRITE_HINT,
  });
  process.stdout.write(`wrote ${outputFile} (version 2, from ${inputFile})\n`);
  return 0;
}
