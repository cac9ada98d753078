// The execution policy of one program (SPEC §9.3): a leaf shared by the manifest (the policy object
// as written, every field optional) and programs/ (the effective policy, filled in). It lives here so
// that manifest/ need not import programs/, which reads the manifest.

/** The artifact policies of §9.3; the output schema's enum comes from this list. */
export const ARTIFACT_POLICIES = ["never", "on-truncation", "always"] as const;
export type ArtifactPolicy = (typeof ARTIFACT_POLICIES)[number];

/** The effective execution policy of one program, every field filled in. */
export interface ProgramPolicy {
  /** Absent: min(--default-timeout-ms, maxTimeoutMs) is used. */
  defaultTimeoutMs?: number;
  maxTimeoutMs: number;
  allowStdin: boolean;
  gracePeriodMs: number;
  finalTerminationWaitMs: number;
  artifactPolicy: ArtifactPolicy;
  allowBackground: boolean;
  maxBackgroundTimeoutMs: number;
}

/** The manifest's policy object as written: every field optional. */
export type PolicyInput = Partial<ProgramPolicy>;
