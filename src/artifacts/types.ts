// The artifact stage's own shapes: what became of an execution's spool (SPEC §4 `artifact`, §8).

/** The artifact statuses; the output schema's enum comes from this list. */
export const ARTIFACT_STATUSES = [
  "not-requested",
  "discarded",
  "published",
  "unavailable",
] as const;
export type ArtifactStatus = (typeof ARTIFACT_STATUSES)[number];

/** Why an artifact is `unavailable`. */
export const ARTIFACT_UNAVAILABLE_REASONS = [
  "STREAM_CAP",
  "QUOTA",
  "STORE_UNAVAILABLE",
  "LOCK_TIMEOUT",
  "WRITE_FAILED",
] as const;
export type ArtifactUnavailableReason = (typeof ARTIFACT_UNAVAILABLE_REASONS)[number];

/** The artifact field of a Canonical Result. */
export interface ArtifactOutcome {
  status: ArtifactStatus;
  id?: string;
  reason?: ArtifactUnavailableReason;
}
