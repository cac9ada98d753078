// Configured Mode (SPEC §9, §10): the manifest, merged for this platform, alone defines programs and environments.

import path from "node:path";
import {
  buildGlobalEnvironment,
  buildProgramEnvironment,
  droppedStartupNames,
  environmentNames,
} from "../environment/child-environment.js";
import { pathDirectoriesOf } from "../environment/path-list.js";
import { effectiveGlobalPath } from "../environment/search-path.js";
import type { StartupEnvironment } from "../environment/variables.js";
import { CommandError } from "../errors.js";
import { mergePlatform } from "../manifest/platform-merge.js";
import { effectiveSandboxPolicy, expandHomePath, policySource } from "../confinement/policy.js";
import type { EffectiveManifest, EnvironmentLayer, Manifest } from "../manifest/types.js";
import { DirectoryListings } from "./directory-listings.js";
import { DEFAULT_PATHEXT } from "./executable-file.js";
import { effectivePolicy } from "./policy.js";
import { disabledDetail, registerProgram, type RegistrationContext } from "./register-program.js";
import type { ProbeSpec, ProgramCatalog, ResolutionDetail } from "./catalog.js";
import type { RegisteredProgram } from "./types.js";

/** What a configured catalog is built from. */
export interface ConfiguredInput {
  /** A manifest that passed validateManifest. */
  manifest: Manifest;
  /** Absolute path of the manifest file, when it came from one. */
  manifestPath?: string;
  startupEnv: StartupEnvironment;
  platform: NodeJS.Platform;
  homeDir: string;
}

/** Probes with their defaults filled in (`acceptedExitCodes` [0], `args` []). */
function parseProbes(effective: EffectiveManifest): Record<string, ProbeSpec> {
  const probes: Record<string, ProbeSpec> = {};
  for (const [name, probe] of Object.entries(effective.probes)) {
    const spec: ProbeSpec = {
      args: [...(probe.args ?? [])],
      acceptedExitCodes: [...(probe.acceptedExitCodes ?? [0])],
    };
    if (probe.cwd !== undefined) spec.cwd = probe.cwd;
    probes[name] = spec;
  }
  return probes;
}

/** Whether two directory lists are the same list. */
function samePath(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((entry, index) => entry === right[index]);
}

/** Stops startup when a required program did not resolve, naming each one and what was tried. */
function assertRequiredResolved(details: readonly ResolutionDetail[]): void {
  const missing = details.filter(
    (detail) => detail.enabled && detail.required && detail.winner === undefined,
  );
  if (missing.length === 0) return;
  const described = missing.map((detail) => {
    const tried = detail.candidates.map((candidate) => JSON.stringify(candidate)).join(", ");
    return `"${detail.name}" (tried ${tried})`;
  });
  throw new CommandError(
    "REQUIRED_PROGRAM_UNAVAILABLE",
    `required program(s) ${described.join("; ")} did not resolve to an executable file on this machine; ` +
      `install them, fix their candidates or searchPath, or mark them "required": false`,
  );
}

/** Stops startup when nothing at all was registered. */
function assertSomethingRegistered(details: readonly ResolutionDetail[], registered: number): void {
  if (registered > 0) return;
  const disabled = details.filter((detail) => !detail.enabled).length;
  throw new CommandError(
    "NO_PROGRAMS_REGISTERED",
    `none of the ${details.length} program(s) in the manifest was registered (${disabled} disabled, ` +
      `the others did not resolve); expected at least one program whose candidates resolve on this machine`,
  );
}

/** The catalog of Configured Mode. */
export function buildConfiguredCatalog(input: ConfiguredInput): ProgramCatalog {
  const { platform, startupEnv } = input;
  const effective = mergePlatform(input.manifest, platform);
  const manifestDirectory =
    input.manifestPath === undefined ? undefined : path.dirname(input.manifestPath);
  const context: RegistrationContext = {
    platform,
    homeDir: input.homeDir,
    listings: new DirectoryListings(),
    ...(manifestDirectory !== undefined && { manifestDirectory }),
  };
  const declaredPath = effectiveGlobalPath({
    searchPath: effective.searchPath,
    allowInheritedPath: effective.allowInheritedPath,
    startupEnv,
    context,
  });
  const globalDropped = new Set<string>();
  const globalEnv = buildGlobalEnvironment({
    startupEnv,
    platform,
    globalPath: declaredPath,
    pathExt: effective.pathExt ?? DEFAULT_PATHEXT,
    layer: effective.environment,
    removedByPattern: globalDropped,
  });
  const allDropped = new Set<string>(
    droppedStartupNames(globalDropped, startupEnv, globalEnv, platform),
  );
  const globalPath = pathDirectoriesOf(globalEnv, platform);
  const programs = new Map<string, RegisteredProgram>();
  const details: ResolutionDetail[] = [];
  const layers: Array<EnvironmentLayer | undefined> = [effective.environment];
  for (const [name, definition] of Object.entries(effective.programs)) {
    const required = definition.required ?? false;
    if (definition.enabled === false) {
      details.push(disabledDetail(name, definition.candidates, required));
      continue;
    }
    layers.push(definition.environment);
    const dropped = new Set(globalDropped);
    const env = buildProgramEnvironment({
      globalEnv,
      layer: definition.environment,
      program: name,
      startupEnv,
      platform,
      removedByPattern: dropped,
    });
    const removedByPattern = droppedStartupNames(dropped, startupEnv, env, platform);
    for (const dropped of removedByPattern) allDropped.add(dropped);
    const pathDirs = pathDirectoriesOf(env, platform);
    const spec = {
      name,
      candidates: definition.candidates,
      required,
      policy: effectivePolicy(definition.policy),
      env,
      pathDirs,
      pathDiffers: !samePath(pathDirs, globalPath),
    };
    const registration = registerProgram(spec, context);
    if (registration.program && definition.rules?.length) {
      registration.program.rules = definition.rules;
    }
    if (registration.program && definition.runsCode !== undefined) {
      registration.program.runsCode = definition.runsCode;
    }
    details.push(
      removedByPattern.length > 0
        ? { ...registration.detail, removedByPattern }
        : registration.detail,
    );
    if (registration.program === undefined) continue;
    const source = policySource(input.manifest, platform, name);
    const sandbox = effectiveSandboxPolicy(source, input.homeDir);
    programs.set(name, sandbox ? { ...registration.program, sandbox } : registration.program);
  }
  assertRequiredResolved(details);
  assertSomethingRegistered(details, programs.size);
  const catalog: ProgramCatalog = {
    mode: "configured",
    programs,
    globalPath,
    environmentNames: environmentNames(layers, platform),
    removedByPattern: [...allDropped].sort(),
    globalEnv,
    probes: parseProbes(effective),
    details,
    manifestVersion: effective.version,
  };
  if (input.manifestPath !== undefined) catalog.manifestPath = input.manifestPath;
  if (effective.projectNode !== undefined) catalog.projectNode = effective.projectNode;
  if (effective.nodeResolution !== undefined) catalog.nodeResolution = effective.nodeResolution;
  if (effective.audit !== undefined) catalog.audit = effective.audit;
  if (input.manifest.rulesEnforcement !== undefined) {
    catalog.rulesEnforcement = input.manifest.rulesEnforcement;
  }
  if (input.manifest.resultDetail !== undefined) {
    catalog.resultDetail = input.manifest.resultDetail;
  }
  const bwrapPath = input.manifest.sandbox?.bwrapPath;
  if (bwrapPath !== undefined) catalog.bwrapPath = expandHomePath(bwrapPath, input.homeDir);
  return catalog;
}
