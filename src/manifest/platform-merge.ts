// Merges `platforms.<platform>` over the base manifest, exactly as SPEC §9.6 says.

import type {
  EffectiveManifest,
  EnvironmentValue,
  GlobalEnvironmentLayer,
  Manifest,
  ProgramDefinition,
  ProgramOverride,
} from "./types.js";

/** A record's own entry (never an inherited one such as `constructor`). */
export function ownValue<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `set` merged by name, the override winning; names compare case-insensitively on Windows. */
function mergeSet(
  base: Record<string, EnvironmentValue> | undefined,
  over: Record<string, EnvironmentValue> | undefined,
  platform: NodeJS.Platform,
): Record<string, EnvironmentValue> | undefined {
  if (over === undefined) return base;
  const merged: Record<string, EnvironmentValue> = { ...base };
  for (const [name, value] of Object.entries(over)) {
    if (platform === "win32") {
      for (const existing of Object.keys(merged)) {
        if (existing.toUpperCase() === name.toUpperCase()) delete merged[existing];
      }
    }
    merged[name] = value;
  }
  return merged;
}

/**
 * An Environment Layer merged with an override: `remove`, `removeMatching` and `inherit` replaced,
 * `set` merged by name.
 */
export function mergeEnvironmentLayer<Layer extends GlobalEnvironmentLayer>(
  base: Layer | undefined,
  over: Layer | undefined,
  platform: NodeJS.Platform,
): Layer {
  const remove = over?.remove ?? base?.remove;
  const removeMatching = over?.removeMatching ?? base?.removeMatching;
  const inherit = over?.inherit ?? base?.inherit;
  const set = mergeSet(base?.set, over?.set, platform);
  const layer = {} as Layer;
  if (remove !== undefined) layer.remove = [...remove];
  if (removeMatching !== undefined) layer.removeMatching = [...removeMatching];
  if (inherit !== undefined) layer.inherit = typeof inherit === "string" ? inherit : [...inherit];
  if (set !== undefined) layer.set = { ...set };
  return layer;
}

/** A base program with a platform's override applied (§9.6). */
export function mergeProgram(
  base: ProgramDefinition,
  over: ProgramOverride | undefined,
  platform: NodeJS.Platform,
): ProgramDefinition {
  if (over === undefined) return base;
  const merged: ProgramDefinition = { candidates: [...(over.candidates ?? base.candidates)] };
  const required = over.required ?? base.required;
  const enabled = over.enabled ?? base.enabled;
  if (required !== undefined) merged.required = required;
  if (enabled !== undefined) merged.enabled = enabled;
  if (base.policy !== undefined || over.policy !== undefined) {
    merged.policy = { ...base.policy, ...over.policy };
  }
  if (base.environment !== undefined || over.environment !== undefined) {
    merged.environment = mergeEnvironmentLayer(base.environment, over.environment, platform);
  }
  if (base.rules !== undefined) merged.rules = base.rules;
  if (base.runsCode !== undefined) merged.runsCode = base.runsCode;
  // `sandbox` is replaced whole; an explicit null (unconfined) is kept as written (§20).
  if (Object.hasOwn(over, "sandbox")) merged.sandbox = over.sandbox ?? null;
  else if (Object.hasOwn(base, "sandbox")) merged.sandbox = base.sandbox ?? null;
  return merged;
}

/** The manifest as it applies on `platform`: the matching platform object merged over the base. */
export function mergePlatform(manifest: Manifest, platform: NodeJS.Platform): EffectiveManifest {
  const over = ownValue(manifest.platforms, platform);
  const programs: Record<string, ProgramDefinition> = {};
  for (const [name, program] of Object.entries(manifest.programs)) {
    programs[name] = mergeProgram(program, ownValue(over?.programs, name), platform);
  }
  const effective: EffectiveManifest = {
    version: manifest.version,
    platform,
    programs,
    searchPath: [...(over?.searchPath ?? []), ...(manifest.searchPath ?? [])],
    allowInheritedPath: over?.allowInheritedPath ?? manifest.allowInheritedPath ?? false,
    environment: mergeEnvironmentLayer(manifest.environment, over?.environment, platform),
    probes: { ...manifest.probes },
  };
  const pathExt = over?.pathExt ?? manifest.pathExt;
  if (pathExt !== undefined) effective.pathExt = pathExt;
  const nodeResolution = over?.nodeResolution ?? manifest.nodeResolution;
  if (nodeResolution !== undefined) effective.nodeResolution = nodeResolution;
  const projectNode = over?.projectNode ?? manifest.projectNode;
  if (projectNode !== undefined) effective.projectNode = projectNode;
  if (manifest.audit !== undefined) effective.audit = manifest.audit;
  return effective;
}
