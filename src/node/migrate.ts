// migrate-manifest: a v1 manifest with nodeResolution becomes a v2 manifest with projectNode (SPEC §13).
// Pure apart from reading the installation directories to find the default version.

import { realpath } from "node:fs/promises";
import path from "node:path";
import { CommandError } from "../errors.js";
import { scanInstallationRoots } from "./installations.js";
import { contextOf, defaultInstallationRoots, type SettingsContext } from "./settings.js";
import { expandHome, isAbsoluteOrHome, isInside } from "./paths.js";

/** What the migration needs besides the manifest. */
export interface MigrationOptions {
  /** The Roots (real paths); they become `projectNode.enabledRoots`. */
  roots: string[];
  /** The real path of the resolved static `node` program, if it resolved. */
  staticNodeRealPath?: string;
  homeDir?: string;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}

/** Converts a v1 manifest object with nodeResolution into the equivalent v2 object. */
export async function migrateManifestObject(
  manifest: Record<string, unknown>,
  options: MigrationOptions,
): Promise<Record<string, unknown>> {
  if (manifest.version !== 1) {
    throw notApplicable(`expected a version 1 manifest, got version ${String(manifest.version)}`);
  }
  const nodeResolution = manifest.nodeResolution;
  if (!isRecord(nodeResolution)) {
    throw notApplicable("expected a version 1 manifest with nodeResolution, got none");
  }
  refusePlatformOverrides(manifest.platforms);
  if (nodeResolution.enabled !== true) {
    return replaceField(manifest, undefined);
  }
  if (options.roots.length === 0) {
    throw new CommandError(
      "ROOT_REQUIRED",
      "migrate-manifest needs at least one --root: the Roots become projectNode.enabledRoots.",
    );
  }
  const context = contextOf(options);
  const installationRoots = await installationRootsOf(nodeResolution, context);
  const defaultVersion = await staticNodeVersion(installationRoots, options, context);
  const projectNode = {
    enabledRoots: [...options.roots],
    installationRoots: installationRoots.map((root) => root.written),
    defaultVersion,
  };
  return replaceField(manifest, projectNode);
}

/** MIGRATION_PLATFORM_OVERRIDE_UNSUPPORTED when any platform overrides nodeResolution. */
function refusePlatformOverrides(platforms: unknown): void {
  if (!isRecord(platforms)) {
    return;
  }
  for (const [name, override] of Object.entries(platforms)) {
    if (isRecord(override) && override.nodeResolution !== undefined) {
      throw new CommandError(
        "MIGRATION_PLATFORM_OVERRIDE_UNSUPPORTED",
        `manifest field platforms.${name}.nodeResolution overrides nodeResolution, which ` +
          `migrate-manifest cannot convert. Expected nodeResolution only at the top level: ` +
          `move it there, or write platforms.${name}.projectNode by hand.`,
      );
    }
  }
}

/** An installation root as the v2 manifest writes it, and where it is on disk. */
interface InstallationRoot {
  written: string;
  absolute: string;
}

/** nodeResolution.installationRoots as written, else the v1 defaults that exist on disk. */
async function installationRootsOf(
  nodeResolution: Record<string, unknown>,
  context: SettingsContext,
): Promise<InstallationRoot[]> {
  const written = nodeResolution.installationRoots;
  if (Array.isArray(written)) {
    return written
      .filter((item): item is string => typeof item === "string" && isAbsoluteOrHome(item))
      .map((item) => ({ written: item, absolute: expandHome(item, context.homeDir) }));
  }
  const present: InstallationRoot[] = [];
  for (const absolute of defaultInstallationRoots(context)) {
    const exists = await realpath(absolute).then(
      () => true,
      () => false,
    );
    if (exists) {
      present.push({ written: homeForm(absolute, context.homeDir), absolute });
    }
  }
  return present;
}

/** `~/…` for a path under the home directory (portable across users), else the path. */
function homeForm(absolute: string, homeDir: string): string {
  if (!isInside(homeDir, absolute) || absolute === homeDir) {
    return absolute;
  }
  return `~/${path.relative(homeDir, absolute).split(path.sep).join("/")}`;
}

/** The version of the installation whose node is the static node program. */
async function staticNodeVersion(
  installationRoots: InstallationRoot[],
  options: MigrationOptions,
  context: SettingsContext,
): Promise<string> {
  const scan = await scanInstallationRoots(
    installationRoots.map((root) => root.absolute),
    context.platform,
  );
  const staticNode =
    options.staticNodeRealPath === undefined
      ? undefined
      : await realpath(options.staticNodeRealPath).catch(() => options.staticNodeRealPath);
  const match = scan.installations.find((installation) => installation.node.path === staticNode);
  if (match !== undefined) {
    return match.version;
  }
  const found = scan.installations.map((item) => `${item.version} (${item.node.path})`);
  throw new CommandError(
    "MIGRATION_DEFAULT_VERSION_UNAVAILABLE",
    `projectNode.defaultVersion is the installation whose executable is the registered node ` +
      `program, got ${staticNode ?? "no registered node program"}, which is none of the ` +
      `installations in ${installationRoots.map((root) => root.written).join(", ") || "no installation root"} ` +
      `(found: ${found.join(", ") || "none"}). Point the node program's candidates at one of ` +
      `them and run migrate-manifest again.`,
  );
}

/** The manifest as version 2, with projectNode where nodeResolution was (or dropped). */
function replaceField(
  manifest: Record<string, unknown>,
  projectNode: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const migrated: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === "version") {
      migrated.version = 2;
    } else if (key === "nodeResolution") {
      if (projectNode !== undefined) {
        migrated.projectNode = projectNode;
      }
    } else {
      migrated[key] = structuredClone(value);
    }
  }
  return migrated;
}

/** MIGRATION_NOT_APPLICABLE with what was expected and got. */
function notApplicable(problem: string): CommandError {
  return new CommandError(
    "MIGRATION_NOT_APPLICABLE",
    `migrate-manifest converts nodeResolution into projectNode: ${problem}.`,
  );
}

/** Whether a JSON value is a plain object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
