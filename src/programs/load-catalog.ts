// The entry point of startup's program resolution: a manifest (Configured Mode) or none (Automatic Discovery Mode).

import os from "node:os";
import path from "node:path";
import type { StartupEnvironment } from "../environment/variables.js";
import { CommandError, isCommandError } from "../errors.js";
import { readManifestFile } from "../manifest/load.js";
import type { Manifest } from "../manifest/types.js";
import { validateManifest } from "../manifest/validate.js";
import { buildAutomaticCatalog } from "./automatic.js";
import { buildConfiguredCatalog } from "./configured.js";
import type { ProgramCatalog } from "./catalog.js";

export { validateManifest };

/** How to build the catalog. */
export interface LoadCatalogOptions {
  /** The manifest file; undefined (and no `manifest`) → Automatic Discovery Mode. */
  manifestPath?: string;
  /**
   * An already-parsed manifest (runtime API). Without `manifestPath`, `./` candidates and
   * searchPath entries fail with MANIFEST_DIRECTORY_REQUIRED.
   */
  manifest?: unknown;
  /** The environment the host gave the server, captured once. */
  startupEnv: StartupEnvironment;
  /** Default process.platform. */
  platform?: NodeJS.Platform;
  /** Expands `~/`; default os.homedir(). */
  homeDir?: string;
}

/** Validates a manifest, naming the file in INVALID_MANIFEST messages. */
function validateFromFile(value: unknown, file: string | undefined): Manifest {
  try {
    validateManifest(value);
    return value;
  } catch (error) {
    if (file === undefined || !isCommandError(error) || error.code !== "INVALID_MANIFEST")
      throw error;
    throw new CommandError("INVALID_MANIFEST", `manifest "${file}": ${error.message}`);
  }
}

/** Reads, validates and resolves everything about programs that startup needs (SPEC §9, §10). */
export async function loadCatalog(options: LoadCatalogOptions): Promise<ProgramCatalog> {
  const platform = options.platform ?? process.platform;
  const homeDir = options.homeDir ?? os.homedir();
  const manifestPath =
    options.manifestPath === undefined ? undefined : path.resolve(options.manifestPath);
  if (manifestPath === undefined && options.manifest === undefined) {
    return buildAutomaticCatalog({ startupEnv: options.startupEnv, platform, homeDir });
  }
  const value =
    options.manifest !== undefined ? options.manifest : await readManifestFile(manifestPath ?? "");
  return buildConfiguredCatalog({
    manifest: validateFromFile(value, manifestPath),
    ...(manifestPath !== undefined && { manifestPath }),
    startupEnv: options.startupEnv,
    platform,
    homeDir,
  });
}
