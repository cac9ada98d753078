// The effective projectNode (v2) / nodeResolution (v1) object, read into typed settings (SPEC §9, §12).
// The manifest loader has validated the schema; these checks only guard the runtime API.

import os from "node:os";
import path from "node:path";
import { CommandError } from "../errors.js";
import {
  NVM_HOME_VARIABLE,
  POSIX_DEFAULT_INSTALLATION_ROOTS,
  WINDOWS_DEFAULT_INSTALLATION_ROOTS,
} from "./constants.js";
import { expandHome, isAbsoluteOrHome } from "./paths.js";
import { parseExactVersion } from "./versions.js";

export type WhenNoSelector = "default-version" | "active-manager";

/** v2 `projectNode`, paths expanded (enabled roots not yet checked on disk). */
export interface ProjectNodeSettings {
  kind: "project-node";
  enabledRoots: string[];
  installationRoots: string[];
  /** Normalised exact version. */
  defaultVersion: string;
  /** `defaultVersion` as written (for messages). */
  defaultVersionRaw: string;
  whenNoSelector: WhenNoSelector;
  /** The one active-manager link, expanded; present when `activeManagerLinks` is written. */
  activeManagerLink?: string;
}

/** v1 `nodeResolution` when enabled, installation roots expanded or defaulted. */
export interface LegacySettings {
  kind: "node-resolution";
  installationRoots: string[];
}

export type NodeSettings = ProjectNodeSettings | LegacySettings;

/** Where to expand `~/` and which layout rules apply. */
export interface SettingsContext {
  homeDir: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

/** The settings to use, or undefined when Project Node resolution is not configured. */
export function readSettings(
  manifestVersion: 1 | 2,
  raw: { projectNode?: Record<string, unknown>; nodeResolution?: Record<string, unknown> },
  context: SettingsContext,
): NodeSettings | undefined {
  if (manifestVersion === 2) {
    return raw.projectNode === undefined ? undefined : readProjectNode(raw.projectNode, context);
  }
  return raw.nodeResolution === undefined
    ? undefined
    : readNodeResolution(raw.nodeResolution, context);
}

/** v2 `projectNode`. */
function readProjectNode(
  raw: Record<string, unknown>,
  context: SettingsContext,
): ProjectNodeSettings {
  const field = "projectNode";
  const enabledRoots = pathList(raw.enabledRoots, `${field}.enabledRoots`, context);
  const installationRoots = pathList(raw.installationRoots, `${field}.installationRoots`, context);
  const defaultVersionRaw = raw.defaultVersion;
  const defaultVersion =
    typeof defaultVersionRaw === "string" ? parseExactVersion(defaultVersionRaw) : undefined;
  if (defaultVersion === undefined) {
    throw invalidManifest(
      `${field}.defaultVersion`,
      "an exact version such as 20.11.1",
      defaultVersionRaw,
    );
  }
  const whenNoSelector = raw.whenNoSelector ?? "default-version";
  if (whenNoSelector !== "default-version" && whenNoSelector !== "active-manager") {
    throw invalidManifest(
      `${field}.whenNoSelector`,
      '"default-version" or "active-manager"',
      whenNoSelector,
    );
  }
  let activeManagerLink: string | undefined;
  if (raw.activeManagerLinks !== undefined) {
    const links = pathList(raw.activeManagerLinks, `${field}.activeManagerLinks`, context);
    if (links.length !== 1) {
      throw invalidManifest(
        `${field}.activeManagerLinks`,
        "exactly one link",
        raw.activeManagerLinks,
      );
    }
    activeManagerLink = links[0];
  }
  if (whenNoSelector === "active-manager" && activeManagerLink === undefined) {
    throw invalidManifest(
      `${field}.activeManagerLinks`,
      'one link when whenNoSelector is "active-manager"',
      undefined,
    );
  }
  return {
    kind: "project-node",
    enabledRoots,
    installationRoots,
    defaultVersion,
    defaultVersionRaw: (defaultVersionRaw as string).trim(),
    whenNoSelector,
    activeManagerLink,
  };
}

/** v1 `nodeResolution`; undefined unless `enabled: true`. */
function readNodeResolution(
  raw: Record<string, unknown>,
  context: SettingsContext,
): LegacySettings | undefined {
  const enabled = raw.enabled ?? false;
  if (typeof enabled !== "boolean") {
    throw invalidManifest("nodeResolution.enabled", "a boolean", enabled);
  }
  if (!enabled) {
    return undefined;
  }
  const installationRoots =
    raw.installationRoots === undefined
      ? defaultInstallationRoots(context)
      : pathList(raw.installationRoots, "nodeResolution.installationRoots", context, {
          allowEmpty: true,
        });
  return { kind: "node-resolution", installationRoots };
}

/** v1's default installation roots for a platform (§12), absolute. */
export function defaultInstallationRoots(context: SettingsContext): string[] {
  if (context.platform !== "win32") {
    return POSIX_DEFAULT_INSTALLATION_ROOTS.map((relative) => path.join(context.homeDir, relative));
  }
  const roots: string[] = [];
  const nvmHome = context.env[NVM_HOME_VARIABLE];
  if (nvmHome !== undefined && nvmHome !== "" && path.isAbsolute(nvmHome)) {
    roots.push(path.resolve(nvmHome));
  }
  for (const relative of WINDOWS_DEFAULT_INSTALLATION_ROOTS) {
    roots.push(path.join(context.homeDir, relative));
  }
  return [...new Set(roots)];
}

/** The home directory, platform and environment to use, filled from the process. */
export function contextOf(options: {
  homeDir?: string;
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
}): SettingsContext {
  return {
    homeDir: options.homeDir ?? os.homedir(),
    platform: options.platform ?? process.platform,
    env: options.env ?? process.env,
  };
}

/** A list of absolute or `~/` paths, expanded and deduplicated. */
function pathList(
  value: unknown,
  field: string,
  context: SettingsContext,
  options: { allowEmpty?: boolean } = {},
): string[] {
  const expected = `a ${options.allowEmpty ? "" : "non-empty "}array of absolute or ~/ paths`;
  if (!Array.isArray(value) || (!options.allowEmpty && value.length === 0)) {
    throw invalidManifest(field, expected, value);
  }
  const paths: string[] = [];
  for (const item of value) {
    if (typeof item !== "string" || !isAbsoluteOrHome(item)) {
      throw invalidManifest(field, expected, value);
    }
    paths.push(expandHome(item, context.homeDir));
  }
  return [...new Set(paths)];
}

/** INVALID_MANIFEST naming the field, what was expected and what was got. */
function invalidManifest(field: string, expected: string, got: unknown): CommandError {
  return new CommandError(
    "INVALID_MANIFEST",
    `manifest field ${field}: expected ${expected}, got ${JSON.stringify(got) ?? "nothing"}.`,
  );
}
