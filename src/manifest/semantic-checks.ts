// The manifest rules a JSON Schema cannot express (SPEC §9.2, §9.3, §9.6, §9.7), checked on every platform.

import { CommandError } from "../errors.js";
import { CANDIDATE_FORMS_TEXT, isCandidateWellFormed } from "./candidate-form.js";
import { mergeProgram, ownValue } from "./platform-merge.js";
import { describeValue, escapePointerSegment, summariseProblems } from "./schema-errors.js";
import type { Manifest, PlatformOverride, ProgramDefinition, ProgramOverride } from "./types.js";
import type { PolicyInput } from "../program-policy.js";
import { MAX_FOREGROUND_TIMEOUT_MS } from "../limits.js";

/** A base candidate must make sense on POSIX and on Windows alike. */
const BASE_CANDIDATE_PLATFORMS: readonly NodeJS.Platform[] = ["linux", "win32"];

/** `/programs/<name>` and the like, keys escaped. */
function pointer(...segments: string[]): string {
  return segments.map((segment) => `/${escapePointerSegment(segment)}`).join("");
}

/** Problems of one program definition or override: candidate forms, timeouts, required vs enabled. */
function programProblems(
  at: string,
  program: ProgramDefinition | ProgramOverride,
  platforms: readonly NodeJS.Platform[],
): string[] {
  const problems: string[] = [];
  (program.candidates ?? []).forEach((candidate, index) => {
    if (!isCandidateWellFormed(candidate, platforms)) {
      const where = `${at}/candidates/${index}`;
      problems.push(
        `${where}: expected ${CANDIDATE_FORMS_TEXT}, got ${describeValue(candidate, where)}`,
      );
    }
  });
  return problems;
}

/** defaultTimeoutMs must not exceed maxTimeoutMs (default 600000). */
function timeoutProblem(at: string, policy: PolicyInput | undefined): string | undefined {
  const defaultTimeoutMs = policy?.defaultTimeoutMs;
  if (defaultTimeoutMs === undefined) return undefined;
  const maxTimeoutMs = policy?.maxTimeoutMs ?? MAX_FOREGROUND_TIMEOUT_MS;
  if (defaultTimeoutMs <= maxTimeoutMs) return undefined;
  return `${at}/policy/defaultTimeoutMs: expected at most maxTimeoutMs (${maxTimeoutMs}), got ${defaultTimeoutMs}`;
}

/** A required program must be enabled. */
function requiredDisabledProblem(at: string, program: ProgramDefinition): string | undefined {
  if (program.required !== true || program.enabled !== false) return undefined;
  return `${at}/enabled: a required program cannot be disabled; expected "enabled": true or "required": false`;
}

/** `sandbox` is a version 2 field (§20): a version 1 program may not carry one. */
function sandboxVersionProblem(
  manifest: Manifest,
  at: string,
  program: ProgramDefinition | ProgramOverride,
): string | undefined {
  if (manifest.version !== 1 || !Object.hasOwn(program, "sandbox")) return undefined;
  return `${at}/sandbox: "sandbox" belongs to version 2 manifests; expected no sandbox in a version 1 manifest (migrate-manifest converts version 1 to 2)`;
}

/** Problems of the base `programs` and `probes`. */
function baseProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  for (const [name, program] of Object.entries(manifest.programs)) {
    const at = pointer("programs", name);
    const sandbox = sandboxVersionProblem(manifest, at, program);
    if (sandbox !== undefined) problems.push(sandbox);
    problems.push(...programProblems(at, program, BASE_CANDIDATE_PLATFORMS));
    const disabled = requiredDisabledProblem(at, program);
    if (disabled !== undefined) problems.push(disabled);
    const timeout = timeoutProblem(at, program.policy);
    if (timeout !== undefined) problems.push(timeout);
  }
  for (const name of Object.keys(manifest.probes ?? {})) {
    if (!Object.hasOwn(manifest.programs, name)) {
      problems.push(
        `${pointer("probes", name)}: expected the name of a program in "programs", got "${name}"`,
      );
    }
  }
  return problems;
}

/** Problems of one program override of one platform, judged on the merged program. */
function overrideProblems(
  manifest: Manifest,
  platformName: string,
  name: string,
  over: ProgramOverride,
): string[] {
  const at = pointer("platforms", platformName, "programs", name);
  const base = ownValue(manifest.programs, name);
  if (base === undefined) {
    return [
      `${at}: expected a program declared in the base "programs"; a platform can only adjust existing programs`,
    ];
  }
  const platform = platformName as NodeJS.Platform;
  const problems = programProblems(at, over, [platform]);
  const sandbox = sandboxVersionProblem(manifest, at, over);
  if (sandbox !== undefined) problems.push(sandbox);
  if (over.required === false && base.required === true) {
    problems.push(
      `${at}/required: a platform may only tighten "required"; the base program is required, got false`,
    );
  }
  const merged = mergeProgram(base, over, platform);
  if (merged.required === true && merged.enabled === false) {
    const field = over.enabled === false ? "enabled" : "required";
    problems.push(
      `${at}/${field}: a required program cannot be disabled (after merging platform "${platformName}")`,
    );
  }
  const touchesTimeouts =
    over.policy?.defaultTimeoutMs !== undefined || over.policy?.maxTimeoutMs !== undefined;
  const timeout = touchesTimeouts ? timeoutProblem(at, merged.policy) : undefined;
  if (timeout !== undefined) problems.push(`${timeout} (after merging platform "${platformName}")`);
  return problems;
}

/** Problems of every platform object, active or not. */
function platformProblems(manifest: Manifest): string[] {
  const problems: string[] = [];
  const platforms: Record<string, PlatformOverride> = manifest.platforms ?? {};
  for (const [platformName, override] of Object.entries(platforms)) {
    for (const [name, over] of Object.entries(override.programs ?? {})) {
      problems.push(...overrideProblems(manifest, platformName, name, over));
    }
  }
  return problems;
}

/** Throws INVALID_MANIFEST for the first few semantic problems of a schema-valid manifest. */
export function assertManifestSemantics(manifest: Manifest): void {
  const problems = [...baseProblems(manifest), ...platformProblems(manifest)];
  if (problems.length > 0) {
    throw new CommandError("INVALID_MANIFEST", summariseProblems(problems));
  }
}
