// The artifact stage's own shapes: what became of an execution's spool (SPEC §4 `artifact`, §8).
// They are the result of output's Spool port (output/types.ts `Spool.publish`), so they are declared
// there (output/ imports no artifacts/ module) and re-exported here under the artifact stage's name.

export {
  ARTIFACT_STATUSES,
  ARTIFACT_UNAVAILABLE_REASONS,
  type ArtifactOutcome,
  type ArtifactStatus,
  type ArtifactUnavailableReason,
} from "../output/types.js";
