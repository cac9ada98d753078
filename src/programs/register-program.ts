// Resolves one Logical Program into a Registered Program and the detail doctor reports (SPEC §10).

import { qualifyingExecutableRules } from "./program-rules.js";
import { programKind } from "./program-kind.js";
import { resolveCandidates } from "./resolve-candidates.js";
import type { DirectoryListings } from "./directory-listings.js";
import type { ResolutionDetail } from "./catalog.js";
import type { ProgramPolicy, RegisteredProgram } from "./types.js";

/** One enabled program, ready to be resolved in its own environment. */
export interface ProgramSpec {
  name: string;
  candidates: readonly string[];
  required: boolean;
  policy: ProgramPolicy;
  env: Record<string, string>;
  pathDirs: string[];
  pathDiffers: boolean;
}

/** Where candidates are resolved from. */
export interface RegistrationContext {
  platform: NodeJS.Platform;
  homeDir: string;
  manifestDirectory?: string;
  /** Shared by the programs of one catalog build. */
  listings?: DirectoryListings;
}

export interface Registration {
  detail: ResolutionDetail;
  /** Absent when no candidate resolved. */
  program?: RegisteredProgram;
}

/** Resolves a program's candidates on its own PATH (and PATHEXT) and builds what the runtime needs. */
export function registerProgram(spec: ProgramSpec, context: RegistrationContext): Registration {
  const rules = qualifyingExecutableRules(spec.env, context.platform);
  const resolution = resolveCandidates(spec.candidates, {
    ...rules,
    pathDirs: spec.pathDirs,
    homeDir: context.homeDir,
    program: spec.name,
    ...(context.listings !== undefined && { listings: context.listings }),
    ...(context.manifestDirectory !== undefined && {
      manifestDirectory: context.manifestDirectory,
    }),
  });
  const detail: ResolutionDetail = {
    name: spec.name,
    required: spec.required,
    enabled: true,
    candidates: [...spec.candidates],
    shadowed: resolution.shadowed,
  };
  const winner = resolution.winner;
  if (winner === undefined) return { detail };
  detail.winner = {
    candidate: winner.candidate,
    foundPath: winner.foundPath,
    realPath: winner.realPath,
  };
  const program: RegisteredProgram = {
    name: spec.name,
    spawnPath: winner.foundPath,
    executable: winner.realPath,
    declaredCandidate: winner.candidate,
    kind: programKind(winner.foundPath, winner.realPath),
    required: spec.required,
    policy: spec.policy,
    env: spec.env,
    pathDirs: spec.pathDirs,
    pathDiffers: spec.pathDiffers,
  };
  return { detail, program };
}

/** The detail of a program with `enabled: false`: listed for doctor, never resolved. */
export function disabledDetail(
  name: string,
  candidates: readonly string[],
  required: boolean,
): ResolutionDetail {
  return { name, required, enabled: false, candidates: [...candidates], shadowed: [] };
}
