// Opens confinement exactly as startup must (SPEC §20), for the composition root and for doctor:
// the adapter is probed once when some program is confined, and the server's own state, artifact
// and audit locations are always hidden from confined programs.

import os from "node:os";
import path from "node:path";
import { defaultArtifactDir } from "../artifacts/default-dir.js";
import { openConfinement, type Launcher } from "../confinement/index.js";
import { defaultExecutionsDir } from "../process/crash-registry.js";
import { sandboxPolicies, type ProgramCatalog } from "../programs/catalog.js";
import type { Root } from "../roots/roots.js";
import type { RuntimeSettings } from "./config.js";

/** What the hidden server locations are derived from. */
export interface ConfinementSetup {
  catalog: ProgramCatalog;
  settings: RuntimeSettings;
  roots: readonly Root[];
  env?: Record<string, string | undefined>;
  /** The audit log in effect (§22), if any. */
  auditPath?: string;
}

/**
 * The audit log's directory, or the file alone when that directory holds a Root (hiding it
 * would hide the workspace itself).
 */
function auditLocation(auditPath: string, roots: readonly Root[]): string {
  const directory = path.dirname(auditPath);
  const relative = (root: Root) => path.relative(directory, root.path);
  const holdsRoot = roots.some(
    (root) => !relative(root).startsWith("..") && !path.isAbsolute(relative(root)),
  );
  return holdsRoot ? auditPath : directory;
}

/** The server's own directories, hidden from every confined program (state, artifacts, audit). */
export function hiddenServerDirectories(setup: ConfinementSetup): string[] {
  const env = setup.env ?? process.env;
  const stateDir = path.dirname(defaultExecutionsDir(env));
  const artifactDir =
    setup.settings.artifactDir ?? defaultArtifactDir(env, process.platform, os.homedir());
  const serverDirectories = [stateDir, path.resolve(artifactDir)];
  if (setup.auditPath !== undefined) {
    serverDirectories.push(auditLocation(setup.auditPath, setup.roots));
  }
  return serverDirectories;
}

/** The Launcher, or undefined when nothing is confined; throws SANDBOX_UNAVAILABLE (fail closed). */
export async function openConfinementFor(setup: ConfinementSetup): Promise<Launcher | undefined> {
  const { catalog } = setup;
  const policies = sandboxPolicies(catalog);
  if (policies.length === 0) return undefined;
  const env = setup.env ?? process.env;
  const serverDirectories = hiddenServerDirectories(setup);
  return openConfinement({
    policies,
    startupPath: env.PATH ?? "",
    serverDirectories,
    ...(catalog.bwrapPath !== undefined && { bwrapPath: catalog.bwrapPath }),
  });
}
