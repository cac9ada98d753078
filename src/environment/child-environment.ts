// The child environments of Configured Mode: startup env → `inherit` (§23) → PATH/PATHEXT
// normalisation → global layer → program layer (SPEC §9.4).

import type { EnvironmentLayer, GlobalEnvironmentLayer } from "../manifest/types.js";
import { applyInherit } from "./inherit.js";
import { applyEnvironmentLayer, layerNames } from "./layers.js";
import { joinPathList, PATH_VARIABLE, PATHEXT_VARIABLE } from "./path-list.js";
import {
  getVariable,
  removeVariable,
  setVariable,
  snapshotEnvironment,
  type Environment,
  type StartupEnvironment,
} from "./variables.js";

/** What the global child environment is built from. */
export interface GlobalEnvironmentInput {
  startupEnv: StartupEnvironment;
  platform: NodeJS.Platform;
  /** The effective global PATH directories of §9.5. */
  globalPath: readonly string[];
  /** Windows: the effective PATHEXT the programs are resolved with. */
  pathExt: string;
  layer: GlobalEnvironmentLayer;
  /** Collects the startup variables `inherit` or `removeMatching` dropped (§23). */
  removedByPattern?: Set<string>;
}

/** PATH becomes the effective global PATH (unset when empty); on Windows PATHEXT the effective one. */
export function normalisePathVariables(
  env: Environment,
  globalPath: readonly string[],
  pathExt: string,
  platform: NodeJS.Platform,
): void {
  if (globalPath.length === 0) removeVariable(env, PATH_VARIABLE, platform);
  else setVariable(env, PATH_VARIABLE, joinPathList(globalPath, platform), platform);
  if (platform === "win32") setVariable(env, PATHEXT_VARIABLE, pathExt, platform);
}

/** The global child environment: startup env, `inherit`, normalised PATH/PATHEXT, the global layer. */
export function buildGlobalEnvironment(input: GlobalEnvironmentInput): Environment {
  const env = snapshotEnvironment(input.startupEnv);
  for (const name of applyInherit(env, input.layer.inherit, input.platform)) {
    input.removedByPattern?.add(name);
  }
  normalisePathVariables(env, input.globalPath, input.pathExt, input.platform);
  applyEnvironmentLayer(env, input.layer, {
    startupEnv: input.startupEnv,
    platform: input.platform,
    owner: "the global environment",
    ...(input.removedByPattern !== undefined && { removedByPattern: input.removedByPattern }),
  });
  return env;
}

/** One program's child environment: the global environment after the program's own layer. */
export function buildProgramEnvironment(options: {
  globalEnv: Environment;
  layer: EnvironmentLayer | undefined;
  program: string;
  startupEnv: StartupEnvironment;
  platform: NodeJS.Platform;
  /** Collects the names the program's `removeMatching` dropped (§23). */
  removedByPattern?: Set<string>;
}): Environment {
  const env: Environment = { ...options.globalEnv };
  if (options.layer === undefined) return env;
  applyEnvironmentLayer(env, options.layer, {
    startupEnv: options.startupEnv,
    platform: options.platform,
    owner: `program "${options.program}"`,
    ...(options.removedByPattern !== undefined && { removedByPattern: options.removedByPattern }),
  });
  return env;
}

/**
 * The report form of dropped names (§23): the startup variables among them that the final child
 * environment does not have (a later `set` may have given one back), sorted; names, never values.
 */
export function droppedStartupNames(
  dropped: Iterable<string>,
  startupEnv: StartupEnvironment,
  finalEnv: Environment,
  platform: NodeJS.Platform,
): string[] {
  const names = new Set<string>();
  for (const name of dropped) {
    if (getVariable(startupEnv, name, platform) === undefined) continue;
    if (getVariable(finalEnv, name, platform) !== undefined) continue;
    names.add(name);
  }
  return [...names].sort();
}

/** The sorted union of names the given layers set or remove (case-insensitively unique on Windows). */
export function environmentNames(
  layers: ReadonlyArray<EnvironmentLayer | undefined>,
  platform: NodeJS.Platform,
): string[] {
  const byKey = new Map<string, string>();
  for (const name of layers.flatMap(layerNames)) {
    const key = platform === "win32" ? name.toUpperCase() : name;
    if (!byKey.has(key)) byKey.set(key, name);
  }
  return [...byKey.values()].sort();
}
