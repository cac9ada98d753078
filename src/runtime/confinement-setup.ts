// Opens confinement exactly as startup must (SPEC §20, §20.1), for the composition root and for
// doctor: the adapter is probed once when some program is confined; the server's state, artifact
// and audit locations (and the audit seal) are always hidden from confined programs and made
// before the first confined run; the manifest stays read-only inside; and no unconfined program
// may run a file that a confined one can replace.

import os from "node:os";
import path from "node:path";
import { defaultArtifactDir } from "../artifacts/default-dir.js";
import {
  checkUnconfinedFiles,
  globalGitConfigFiles,
  openConfinement,
  type Launcher,
  type UnconfinedFile,
} from "../confinement/index.js";
import { AUDIT_SEAL_SUFFIX } from "../confinement/constants.js";
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

/** The programs Project Node installations serve (§12). */
const NODE_PROGRAMS = new Set(["node", "npm", "npx"]);

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

/** What unconfined programs run: their executables, and Project Node installations for node/npm/npx. */
async function unconfinedFiles(
  catalog: ProgramCatalog,
  env: Record<string, string | undefined>,
): Promise<UnconfinedFile[]> {
  const files: UnconfinedFile[] = [];
  const unconfined = [...catalog.programs.values()].filter((program) => !program.sandbox);
  for (const program of unconfined) {
    for (const file of new Set([program.executable, program.spawnPath])) {
      files.push({ program: program.name, path: file, what: "executable" });
    }
  }
  const nodeUsers = unconfined.filter((program) => NODE_PROGRAMS.has(program.name));
  const wanted = catalog.projectNode || catalog.nodeResolution;
  if (nodeUsers.length === 0 || catalog.manifestVersion === undefined || !wanted) return files;
  const { readSettings, contextOf } = await import("../node/settings.js");
  const settings = readSettings(
    catalog.manifestVersion,
    { projectNode: catalog.projectNode, nodeResolution: catalog.nodeResolution },
    contextOf({ env }),
  );
  const places = [
    ...(settings?.installationRoots ?? []),
    ...(settings?.kind === "project-node" && settings.activeManagerLink
      ? [settings.activeManagerLink]
      : []),
  ];
  for (const program of nodeUsers) {
    for (const place of places) {
      files.push({ program: program.name, path: place, what: "Project Node installations" });
    }
  }
  return files;
}

/** The server's own locations: the directories made before the first confined run, and what is hidden. */
function serverLocations(setup: ConfinementSetup): {
  serverDirectories: string[];
  hidden: string[];
} {
  const env = setup.env ?? process.env;
  const stateDir = path.dirname(defaultExecutionsDir(env));
  const artifactDir = path.resolve(
    setup.settings.artifactDir ?? defaultArtifactDir(env, process.platform, os.homedir()),
  );
  const serverDirectories = [stateDir, artifactDir];
  const hidden = [stateDir, artifactDir];
  if (setup.auditPath !== undefined) {
    const audit = path.resolve(setup.auditPath);
    const location = auditLocation(audit, setup.roots);
    if (location !== audit) serverDirectories.push(location);
    hidden.push(location, `${audit}${AUDIT_SEAL_SUFFIX}`);
  }
  return { serverDirectories, hidden };
}

/** The server's own paths hidden from every confined program (state, artifacts, audit, seal). */
export function hiddenServerDirectories(setup: ConfinementSetup): string[] {
  return serverLocations(setup).hidden;
}

/** The Launcher, or undefined when nothing is confined; throws SANDBOX_UNAVAILABLE (fail closed). */
export async function openConfinementFor(setup: ConfinementSetup): Promise<Launcher | undefined> {
  const { catalog } = setup;
  const policies = sandboxPolicies(catalog);
  if (policies.length === 0) return undefined;
  const env = setup.env ?? process.env;
  const roots = setup.roots.map((root) => root.path);
  const confined = [...catalog.programs.values()].flatMap((program) =>
    program.sandbox ? [{ program: program.name, policy: program.sandbox }] : [],
  );
  checkUnconfinedFiles(await unconfinedFiles(catalog, env), confined, roots);
  const home = env.HOME || os.homedir();
  const { serverDirectories, hidden } = serverLocations(setup);
  return openConfinement({
    policies,
    startupPath: env.PATH ?? "",
    serverFiles: {
      readOnly: catalog.manifestPath !== undefined ? [path.resolve(catalog.manifestPath)] : [],
      hidden,
    },
    serverDirectories,
    roots,
    home,
    globalGitConfigs: globalGitConfigFiles(home, env.XDG_CONFIG_HOME),
    ...(catalog.bwrapPath !== undefined && { bwrapPath: catalog.bwrapPath }),
  });
}
