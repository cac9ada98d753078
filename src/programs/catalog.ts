// The set of programs a server runs with, as startup produced it (SPEC §9, §10, §12).

import type { AuditSettings } from "../policy/types.js";
import type { RegisteredProgram, PolicyInput } from "./types.js";
import type { SandboxPolicy } from "../confinement/types.js";

export type Mode = "configured" | "automatic-discovery";

/** A probe declared in the manifest, run only by `doctor --execute` (§9.7). */
export interface ProbeSpec {
  args: string[];
  acceptedExitCodes: number[];
  cwd?: string;
}

/** How one Logical Program was resolved, for doctor (§13). */
export interface ResolutionDetail {
  name: string;
  required: boolean;
  enabled: boolean;
  candidates: string[];
  /** The candidate that won, when one did. */
  winner?: { candidate: string; foundPath: string; realPath: string };
  /** Later PATH entries (or later candidates) that would also have matched. */
  shadowed: string[];
  /** Startup variables `inherit` or a `removeMatching` pattern kept from this program (§23). */
  removedByPattern?: string[];
}

/** Everything startup resolved about programs; the runtime takes it as given. */
export interface ProgramCatalog {
  mode: Mode;
  /** Registered programs keyed by Logical Program name. */
  programs: Map<string, RegisteredProgram>;
  /** The effective global PATH directories (§9.5). */
  globalPath: string[];
  /** Sorted union of names the manifest's global and program layers set or remove. */
  environmentNames: string[];
  /** Sorted startup variables `inherit` or any `removeMatching` dropped (§23): names only. */
  removedByPattern: string[];
  /** The global child environment (startup env after global layers). */
  globalEnv: Record<string, string>;
  probes: Record<string, ProbeSpec>;
  details: ResolutionDetail[];
  manifestPath?: string;
  manifestVersion?: 1 | 2;
  /** The effective (platform-merged) v2 `projectNode` object, as written. */
  projectNode?: Record<string, unknown>;
  /** The effective (platform-merged) v1 `nodeResolution` object, as written. */
  nodeResolution?: Record<string, unknown>;
  /** The manifest's `audit` object (§22), as written. */
  audit?: AuditSettings;
  /** The top-level `sandbox.bwrapPath`, `~/` expanded (§20). */
  bwrapPath?: string;
  /** The manifest's `rulesEnforcement` (§21.1); absent: "advisory". */
  rulesEnforcement?: "advisory" | "strict";
  /** The manifest's `resultDetail`; absent: the command line's or the default. */
  resultDetail?: "compact" | "full";
}

export type { PolicyInput };

/** The sandbox policies of the confined programs (§20); empty when every program runs unconfined. */
export function sandboxPolicies(catalog: ProgramCatalog): SandboxPolicy[] {
  return [...catalog.programs.values()].flatMap((program) =>
    program.sandbox ? [program.sandbox] : [],
  );
}
