// v1 `nodeResolution`: the highest installation satisfying the nearest declaration (SPEC §12).
// Kept for manifests written for the earlier implementation; v2 `projectNode` replaces it.

import { CommandError } from "../errors.js";
import { DirectoryDeclarations, requirementInvalid } from "./declarations.js";
import type { InstallationSet } from "./installation-set.js";
import { walkUp } from "./paths.js";
import type { Choice, Declaration } from "./types.js";
import { highestSatisfying, parseRange } from "./versions.js";

const RANGE_EXPECTATION =
  "a version or semver range such as 20.11.1, 20 or >=20 (aliases like lts/*, node, stable, default are not accepted)";

/** The installation for a request in `cwd` (walk stops at `root`), or undefined: no declaration. */
export async function chooseLegacyNode(
  cwd: string,
  root: string,
  installations: InstallationSet,
): Promise<Choice | undefined> {
  for (const directory of walkUp(cwd, root)) {
    const declaration = await firstPresent(new DirectoryDeclarations(directory));
    if (declaration !== undefined) {
      return chooseHighest(declaration, installations);
    }
  }
  return undefined;
}

/** The first present of devEngines > volta > .nvmrc > .node-version > engines.node. */
async function firstPresent(directory: DirectoryDeclarations): Promise<Declaration | undefined> {
  const packageJson = await directory.package();
  const devEngines = packageJson?.devEngines[0];
  if (devEngines !== undefined) {
    return devEngines;
  }
  if (packageJson?.volta !== undefined) {
    return packageJson.volta;
  }
  const nvmrc = await directory.nvmrc();
  if (nvmrc !== undefined) {
    return nvmrc;
  }
  const nodeVersion = await directory.nodeVersion();
  if (nodeVersion !== undefined) {
    return nodeVersion;
  }
  return packageJson?.engines;
}

/** The highest installed version satisfying the declaration, or NODE_VERSION_UNAVAILABLE. */
function chooseHighest(declaration: Declaration, installations: InstallationSet): Choice {
  const range = declaration.raw === "" ? undefined : parseRange(declaration.raw);
  if (range === undefined) {
    throw requirementInvalid(declaration, RANGE_EXPECTATION);
  }
  const version = highestSatisfying(installations.versions(), range);
  const installation = version === undefined ? undefined : installations.get(version);
  if (installation === undefined) {
    throw new CommandError(
      "NODE_VERSION_UNAVAILABLE",
      `${declaration.source} in ${declaration.file} asks for Node ` +
        `${JSON.stringify(declaration.raw)}, which no installation satisfies ` +
        `(found at startup: ${installations.describe()}). Install a matching version and ` +
        `restart the server, or change the declaration.`,
    );
  }
  return { installation, source: declaration.source, requirement: declaration.raw };
}
