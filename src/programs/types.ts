// What a Registered Program is once startup has resolved it (SPEC §1, §3.2, §9.3, §10).

import type { Rule } from "../policy/types.js";
import type { SandboxPolicy, SelectionSandbox } from "../confinement/types.js";
import type { ProgramPolicy } from "../program-policy.js";

// The execution policy's home is the leaf src/program-policy.ts (manifest/ uses it too).
export {
  ARTIFACT_POLICIES,
  type ArtifactPolicy,
  type PolicyInput,
  type ProgramPolicy,
} from "../program-policy.js";

/** What actually ran (§4, §12). */
export interface ProgramSelection {
  logicalName: string;
  executable: string;
  version?: string;
  requirement?: string;
  source?: string;
  adapter?: string;
  /** §20: how a confined run was confined. */
  sandbox?: SelectionSandbox;
}

export type ProgramKind = "native" | "cmd-script";

/** A Project Node variant as reported by system_environment (§12). */
export interface NodeVariantReport {
  version: string;
  executable: string;
  npmCli?: string;
  npxCli?: string;
}

export interface VariantSetReport {
  kind: "node-project";
  variants: NodeVariantReport[];
  fallbackExecutable: string;
}

/** A Logical Program resolved to a real executable at startup. */
export interface RegisteredProgram {
  name: string;
  /** The path the candidate was found at; the process is spawned through it (§6.1). */
  spawnPath: string;
  /** The real path of the executable (symlinks resolved), reported as `executable`. */
  executable: string;
  declaredCandidate: string;
  kind: ProgramKind;
  required: boolean;
  policy: ProgramPolicy;
  /** The child's complete environment (startup env after the manifest's layers). */
  env: Record<string, string>;
  /** The PATH directories of this program (resolves its candidates and is its child's PATH). */
  pathDirs: string[];
  /** True when this program's PATH differs from the global one. */
  pathDiffers: boolean;
  /** Argument rules (§21), in manifest order; absent when there are none. */
  rules?: readonly Rule[];
  /** The manifest's `runsCode` (§21.1), when it gives one. */
  runsCode?: boolean;
  /** The effective sandbox (§20); absent: the program runs unconfined. */
  sandbox?: SandboxPolicy;
}
