// v2 `projectNode`: which installation one request in an enabled root runs (SPEC §12).
// The nearest directory with an exact selector wins; every engines.node on the way must hold.

import path from "node:path";
import { CommandError } from "../errors.js";
import { activeInstallation } from "./active-manager.js";
import { SOURCE } from "./constants.js";
import { DirectoryDeclarations, requirementInvalid } from "./declarations.js";
import type { InstallationSet } from "./installation-set.js";
import { walkUp } from "./paths.js";
import type { ProjectNodeSettings } from "./settings.js";
import type { Choice, Declaration, NodeInstallation } from "./types.js";
import { EXACT_VERSION_EXPECTATION, parseExactVersion, parseRange, satisfies } from "./versions.js";

/** An exact selector with its normalised version. */
interface Selector extends Declaration {
  version: string;
}

/** An engines.node range with its normalised form. */
interface EnginesRange extends Declaration {
  range: string;
}

/** What the walk from cwd to the boundary found. */
interface ProjectDeclarations {
  /** The exact selectors of the nearest directory that has any (all must agree). */
  selectors: Declaration[];
  /** Every engines.node from cwd to the boundary. */
  engines: Declaration[];
}

/** The installation a request with this real `cwd` inside `boundary` runs. */
export async function chooseProjectNode(
  cwd: string,
  boundary: string,
  settings: ProjectNodeSettings,
  installations: InstallationSet,
): Promise<Choice> {
  const found = await collect(cwd, boundary);
  const selectors = found.selectors.map(toSelector);
  const ranges = found.engines.map(toRange);
  const choice =
    selectors.length > 0
      ? chooseSelected(agreeingSelector(selectors), installations)
      : await chooseFallback(settings, installations);
  checkRanges(choice, ranges);
  return choice;
}

/** Walks from cwd up to the boundary, reading only what the rules need. */
async function collect(cwd: string, boundary: string): Promise<ProjectDeclarations> {
  let selectors: Declaration[] = [];
  const engines: Declaration[] = [];
  for (const directory of walkUp(cwd, boundary)) {
    const declarations = new DirectoryDeclarations(directory);
    const packageJson = await declarations.package();
    if (packageJson?.engines !== undefined) {
      engines.push(packageJson.engines);
    }
    if (selectors.length > 0) {
      continue;
    }
    const here: (Declaration | undefined)[] = [
      ...(packageJson?.devEngines ?? []),
      packageJson?.volta,
      await declarations.nvmrc(),
      await declarations.nodeVersion(),
    ];
    selectors = here.filter((item): item is Declaration => item !== undefined);
  }
  return { selectors, engines };
}

/** An exact selector, or NODE_VERSION_REQUIREMENT_INVALID for a range, alias or garbage. */
function toSelector(declaration: Declaration): Selector {
  const version = parseExactVersion(declaration.raw);
  if (version === undefined) {
    throw requirementInvalid(declaration, EXACT_VERSION_EXPECTATION);
  }
  return { ...declaration, version };
}

/** An engines.node range, or NODE_VERSION_REQUIREMENT_INVALID. */
function toRange(declaration: Declaration): EnginesRange {
  const range = parseRange(declaration.raw);
  if (range === undefined) {
    throw requirementInvalid(declaration, "a semver range such as >=20 or ^20.11.0");
  }
  return { ...declaration, range };
}

/** The one version all selectors of the nearest directory agree on. */
function agreeingSelector(selectors: Selector[]): Selector {
  const first = selectors[0]!;
  const disagreeing = selectors.some((selector) => selector.version !== first.version);
  if (disagreeing) {
    const listed = selectors
      .map((selector) => `${selector.source} = ${JSON.stringify(selector.raw)}`)
      .join(", ");
    throw new CommandError(
      "PROJECT_NODE_DECLARATION_CONFLICT",
      `The Node declarations in ${path.dirname(first.file)} disagree: ${listed}. ` +
        `Expected them all to name the same version; make them agree or remove all but one.`,
    );
  }
  return first;
}

/** The installation a selector names, or PROJECT_NODE_VERSION_UNAVAILABLE. */
function chooseSelected(selector: Selector, installations: InstallationSet): Choice {
  const installation = installations.get(selector.version);
  if (installation === undefined) {
    throw new CommandError(
      "PROJECT_NODE_VERSION_UNAVAILABLE",
      `${selector.source} in ${selector.file} asks for Node ${selector.version}, which is not ` +
        `installed (found at startup: ${installations.describe()}). Install it and restart ` +
        `the server, or change the declaration.`,
    );
  }
  return { installation, source: selector.source, requirement: installation.version };
}

/** No selector: the manifest's default version, or the active manager's version. */
async function chooseFallback(
  settings: ProjectNodeSettings,
  installations: InstallationSet,
): Promise<Choice> {
  if (settings.whenNoSelector === "active-manager" && settings.activeManagerLink !== undefined) {
    const installation = await activeInstallation(settings.activeManagerLink, installations.list);
    return { installation, source: SOURCE.activeManager, requirement: installation.version };
  }
  const installation: NodeInstallation | undefined = installations.get(settings.defaultVersion);
  if (installation === undefined) {
    // Startup refuses a defaultVersion that is not installed, so this cannot happen.
    throw new CommandError(
      "PROJECT_NODE_VERSION_UNAVAILABLE",
      `manifest projectNode.defaultVersion ${settings.defaultVersionRaw} is not installed.`,
    );
  }
  return {
    installation,
    source: SOURCE.defaultVersion,
    requirement: installation.version,
  };
}

/** PROJECT_NODE_RANGE_UNSATISFIED unless the chosen version satisfies every engines.node. */
function checkRanges(choice: Choice, ranges: EnginesRange[]): void {
  const version = choice.installation.version;
  for (const range of ranges) {
    if (satisfies(version, range.range)) {
      continue;
    }
    throw new CommandError(
      "PROJECT_NODE_RANGE_UNSATISFIED",
      `Node ${version} (chosen by ${choice.source}) does not satisfy ` +
        `engines.node ${JSON.stringify(range.raw)} in ${range.file}. ` +
        `Expected a version in that range: change the pin or the engines field.`,
    );
  }
}
