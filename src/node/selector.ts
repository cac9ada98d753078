// The Node selector: built once at startup, asked once per node/npm/npx request (SPEC §12).

import path from "node:path";
import { CommandError } from "../errors.js";
import type { RegisteredProgram, VariantSetReport } from "../programs/types.js";
import { NODE_PROGRAMS, type NodeProgram } from "./constants.js";
import { resolveEnabledRoots } from "./enabled-roots.js";
import { InstallationSet } from "./installation-set.js";
import { scanInstallationRoots } from "./installations.js";
import { buildLaunchPlan } from "./launch-plan.js";
import { chooseLegacyNode } from "./legacy-resolution.js";
import { deepestContaining } from "./paths.js";
import { chooseProjectNode } from "./project-resolution.js";
import { contextOf, readSettings, type NodeSettings } from "./settings.js";
import type { Choice, LaunchPlan, NodeInstallation } from "./types.js";

/** What startup hands the selector. */
export interface NodeSelectorOptions {
  manifestVersion: 1 | 2;
  /** v2, the effective (platform-merged) object as written; paths absolute or `~/`. */
  projectNode?: Record<string, unknown>;
  /** v1, the effective object as written. */
  nodeResolution?: Record<string, unknown>;
  /** The effective Roots (real paths). */
  roots: string[];
  /** The registered `node` program; defaults to `staticPrograms.get("node")`. */
  staticNode?: RegisteredProgram;
  staticPrograms: Map<string, RegisteredProgram>;
  homeDir?: string;
  /** Chooses layouts (`node.exe`), default roots and whether X_OK is required. */
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}

/** Project Node resolution for one server lifetime. */
export interface NodeSelector {
  /** `"project-node"` (v2 projectNode) or `"node-resolution"` (v1). */
  readonly kind: NodeSettings["kind"];
  /** Skipped installation roots/directories and duplicate versions, for doctor. */
  readonly warnings: readonly string[];
  /** The installations found at startup, newest first. */
  readonly installations: readonly NodeInstallation[];
  /** v2: the enabled roots as real paths (deepest one containing cwd is the boundary). */
  readonly enabledRoots: readonly string[];
  /** For system_environment's `node` entry and doctor. */
  variantSet(): VariantSetReport;
  /**
   * Per request, for program node/npm/npx with an absolute real cwd: undefined → run the static
   * program; else the plan. Throws the per-request CommandErrors of §12.
   */
  select(program: string, cwd: string): Promise<LaunchPlan | undefined>;
}

/** Startup: builds the immutable installation set and checks the configuration (nothing run). */
export async function createNodeSelector(
  options: NodeSelectorOptions,
): Promise<NodeSelector | undefined> {
  const context = contextOf(options);
  const settings = readSettings(options.manifestVersion, options, context);
  if (settings === undefined) {
    return undefined;
  }
  const staticNode = requireStaticNode(
    settings,
    options.staticNode ?? options.staticPrograms.get("node"),
  );
  const enabledRoots =
    settings.kind === "project-node"
      ? await resolveEnabledRoots(settings.enabledRoots, options.roots)
      : [];
  const scan = await scanInstallationRoots(settings.installationRoots, context.platform);
  const installations = new InstallationSet(scan.installations);
  if (installations.list.length === 0) {
    throw new CommandError(
      "NODE_VARIANTS_UNAVAILABLE",
      `No Node installation was found in ${settingsField(settings)}.installationRoots ` +
        `(${settings.installationRoots.join(", ") || "none"}). Expected version directories ` +
        `such as v20.11.1 holding bin/node (nvm, volta, asdf, n), installation/bin/node (fnm) ` +
        `or node.exe (Windows).` +
        (scan.warnings.length > 0 ? ` ${scan.warnings.join(" ")}` : ""),
    );
  }
  if (
    settings.kind === "project-node" &&
    installations.get(settings.defaultVersion) === undefined
  ) {
    throw new CommandError(
      "PROJECT_NODE_VERSION_UNAVAILABLE",
      `manifest projectNode.defaultVersion ${settings.defaultVersionRaw} is not installed in ` +
        `projectNode.installationRoots (found: ${installations.describe()}). Expected one of ` +
        `those versions; install it or change defaultVersion.`,
    );
  }
  return new StartupNodeSelector(
    settings,
    installations,
    enabledRoots,
    [...options.roots],
    staticNode,
    scan.warnings,
  );
}

/** NODE_RESOLUTION_NODE_REQUIRED unless a native static `node` program is registered. */
function requireStaticNode(
  settings: NodeSettings,
  staticNode: RegisteredProgram | undefined,
): RegisteredProgram {
  if (staticNode !== undefined && staticNode.kind === "native") {
    return staticNode;
  }
  const got =
    staticNode === undefined
      ? "no registered node program"
      : `node registered as a ${staticNode.kind} (${staticNode.executable})`;
  throw new CommandError(
    "NODE_RESOLUTION_NODE_REQUIRED",
    `manifest ${settingsField(settings)} needs a registered native node program (the fallback ` +
      `outside enabled roots and the program the variants are reported on), got ${got}. ` +
      `Add a "node" program whose candidate resolves to a node executable.`,
  );
}

/** The manifest field a setting came from, for messages. */
function settingsField(settings: NodeSettings): string {
  return settings.kind === "project-node" ? "projectNode" : "nodeResolution";
}

/** The selector startup built; immutable apart from what it reads per request. */
class StartupNodeSelector implements NodeSelector {
  readonly kind: NodeSettings["kind"];
  readonly warnings: readonly string[];
  readonly enabledRoots: readonly string[];
  private readonly set: InstallationSet;

  constructor(
    private readonly settings: NodeSettings,
    installations: InstallationSet,
    enabledRoots: string[],
    private readonly roots: string[],
    private readonly staticNode: RegisteredProgram,
    warnings: string[],
  ) {
    this.kind = settings.kind;
    this.set = installations;
    this.enabledRoots = Object.freeze(enabledRoots);
    this.warnings = Object.freeze(warnings);
  }

  get installations(): readonly NodeInstallation[] {
    return this.set.list;
  }

  variantSet(): VariantSetReport {
    return {
      kind: "node-project",
      variants: this.set.list.map((installation) => ({
        version: installation.version,
        executable: installation.node.path,
        ...(installation.npmCli ? { npmCli: installation.npmCli.path } : {}),
        ...(installation.npxCli ? { npxCli: installation.npxCli.path } : {}),
      })),
      fallbackExecutable: this.staticNode.executable,
    };
  }

  async select(program: string, cwd: string): Promise<LaunchPlan | undefined> {
    if (!isNodeProgram(program)) {
      return undefined;
    }
    if (!path.isAbsolute(cwd)) {
      throw new TypeError(`NodeSelector.select needs an absolute real cwd, got ${cwd}`);
    }
    const choice = await this.choose(cwd);
    return choice === undefined ? undefined : buildLaunchPlan(program, choice);
  }

  /** The installation for a cwd, or undefined when the static program runs. */
  private async choose(cwd: string): Promise<Choice | undefined> {
    if (this.settings.kind === "project-node") {
      const boundary = deepestContaining(this.enabledRoots, cwd);
      if (boundary === undefined) {
        return undefined;
      }
      return chooseProjectNode(cwd, boundary, this.settings, this.set);
    }
    const root = deepestContaining(this.roots, cwd);
    if (root === undefined) {
      return undefined;
    }
    return chooseLegacyNode(cwd, root, this.set);
  }
}

/** Whether a Logical Program is one Project Node resolution redirects. */
export function isNodeProgram(program: string): program is NodeProgram {
  return (NODE_PROGRAMS as readonly string[]).includes(program);
}
