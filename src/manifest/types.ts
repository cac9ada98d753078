// The Program Manifest as written (SPEC §9), after schema validation, and after the platform merge.

import type { AuditSettings, Rule } from "../policy/types.js";
import type { PolicyInput } from "../program-policy.js";

export type FilesystemMode = "read-only" | "workspace-write" | "full";
export type NetworkMode = "allow" | "deny";

/** A `sandbox` object as the manifest writes it (§20); `bwrapPath` only in the top-level one. */
export interface SandboxInput {
  filesystem: FilesystemMode;
  writablePaths?: string[];
  hiddenPaths?: string[];
  protectedPaths?: string[];
  network?: NetworkMode;
  bwrapPath?: string;
}

/** A reference to a variable of the server's startup environment (§9.4). */
export interface EnvironmentReference {
  fromEnvironment: string;
  /** Default true: a missing variable stops startup. */
  required?: boolean;
}

export type EnvironmentValue = string | EnvironmentReference;

/** One Environment Layer: names to remove, then glob patterns to remove (§23), then names to set. */
export interface EnvironmentLayer {
  remove?: string[];
  removeMatching?: string[];
  set?: Record<string, EnvironmentValue>;
}

/** Which startup variables children inherit at all (§23): all, none, or names and patterns. */
export type InheritSetting = "all" | "none" | string[];

/** The global layer (top level and platform objects): an Environment Layer plus `inherit`. */
export interface GlobalEnvironmentLayer extends EnvironmentLayer {
  inherit?: InheritSetting;
}

/** A Logical Program as declared in the base `programs`. */
export interface ProgramDefinition {
  candidates: string[];
  required?: boolean;
  enabled?: boolean;
  policy?: PolicyInput;
  environment?: EnvironmentLayer;
  /** Argument rules (§21); platforms cannot override them. */
  rules?: Rule[];
  /** v2 only (§20): replaces the default whole; null runs this program unconfined. */
  sandbox?: SandboxInput | null;
  /** §21.1: whether it can run code it is given (overrides the built-in list). */
  runsCode?: boolean;
}

/** A platform's changes to a program of the base manifest (§9.6). */
export type ProgramOverride = Partial<Omit<ProgramDefinition, "rules" | "runsCode">>;

/** `platforms.<name>`: what one platform may override. */
export interface PlatformOverride {
  searchPath?: string[];
  pathExt?: string;
  allowInheritedPath?: boolean;
  environment?: GlobalEnvironmentLayer;
  programs?: Record<string, ProgramOverride>;
  nodeResolution?: Record<string, unknown>;
  projectNode?: Record<string, unknown>;
  sandbox?: SandboxInput | null;
}

/** A probe as written (§9.7). */
export interface ProbeDefinition {
  args?: string[];
  acceptedExitCodes?: number[];
  cwd?: string;
}

/** A manifest that passed the schema (version 1 or 2). */
export interface Manifest {
  version: 1 | 2;
  programs: Record<string, ProgramDefinition>;
  searchPath?: string[];
  pathExt?: string;
  allowInheritedPath?: boolean;
  environment?: GlobalEnvironmentLayer;
  platforms?: Record<string, PlatformOverride>;
  probes?: Record<string, ProbeDefinition>;
  nodeResolution?: Record<string, unknown>;
  projectNode?: Record<string, unknown>;
  /** The audit log (§22). */
  audit?: AuditSettings;
  sandbox?: SandboxInput | null;
  /** §21.1: "strict" refuses to start when the rules cannot hold. */
  rulesEnforcement?: "advisory" | "strict";
  /** The default detail of results (docs/results.md "Compact results"). */
  resultDetail?: "compact" | "full";
}

/** The manifest as it applies on one platform: base and `platforms.<platform>` merged. */
export interface EffectiveManifest {
  version: 1 | 2;
  platform: NodeJS.Platform;
  programs: Record<string, ProgramDefinition>;
  /** Platform entries first, then base entries, as written (not yet expanded). */
  searchPath: string[];
  pathExt?: string;
  allowInheritedPath: boolean;
  environment: GlobalEnvironmentLayer;
  probes: Record<string, ProbeDefinition>;
  nodeResolution?: Record<string, unknown>;
  projectNode?: Record<string, unknown>;
  audit?: AuditSettings;
}
