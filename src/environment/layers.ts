// Applies one Environment Layer: remove, then removeMatching (SPEC §23), then set, so that within
// a layer set wins (SPEC §9.4).

import { CommandError } from "../errors.js";
import type { EnvironmentLayer, EnvironmentValue } from "../manifest/types.js";
import { matchesAnyPattern } from "./patterns.js";
import {
  getVariable,
  removeVariable,
  setVariable,
  type Environment,
  type StartupEnvironment,
} from "./variables.js";

/** Where the values of references come from, and whose layer this is (for messages). */
export interface LayerContext {
  startupEnv: StartupEnvironment;
  platform: NodeJS.Platform;
  /** "the global environment" or `program "git"`. */
  owner: string;
  /** Collects the names `removeMatching` removed (as spelled in the environment). */
  removedByPattern?: Set<string>;
}

/** The value a `set` entry gives, or undefined when an optional reference is missing. */
function resolveValue(
  name: string,
  value: EnvironmentValue,
  context: LayerContext,
): string | undefined {
  if (typeof value === "string") return value;
  const referenced = getVariable(context.startupEnv, value.fromEnvironment, context.platform);
  if (referenced !== undefined || value.required === false) return referenced;
  throw new CommandError(
    "MISSING_ENVIRONMENT_REFERENCE",
    `${context.owner} sets ${name} from the startup variable ${value.fromEnvironment}, which is not set; ` +
      `start the server with ${value.fromEnvironment} set, or mark the reference "required": false`,
  );
}

/**
 * Applies a layer to `env` in place: every `remove`, then every variable matching a
 * `removeMatching` pattern, then every `set` (missing optional references remove).
 */
export function applyEnvironmentLayer(
  env: Environment,
  layer: EnvironmentLayer,
  context: LayerContext,
): void {
  for (const name of layer.remove ?? []) removeVariable(env, name, context.platform);
  const patterns = layer.removeMatching ?? [];
  if (patterns.length > 0) {
    for (const name of Object.keys(env)) {
      if (!matchesAnyPattern(name, patterns)) continue;
      delete env[name];
      context.removedByPattern?.add(name);
    }
  }
  for (const [name, value] of Object.entries(layer.set ?? {})) {
    const resolved = resolveValue(name, value, context);
    if (resolved === undefined) removeVariable(env, name, context.platform);
    else setVariable(env, name, resolved, context.platform);
  }
}

/** The names a layer sets or removes. */
export function layerNames(layer: EnvironmentLayer | undefined): string[] {
  return [...(layer?.remove ?? []), ...Object.keys(layer?.set ?? {})];
}
