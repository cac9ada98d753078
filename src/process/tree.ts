// The interface every platform's process-tree adapter implements (SPEC §6.5).

import type { CleanupError, TerminationAdapter } from "./types.js";

/** Owns the process tree of one execution: asks it to stop, forces it, and tells when it is empty. */
export interface ProcessTree {
  readonly adapter: TerminationAdapter;
  /** Ask every member to stop (SIGTERM to the group). Returns an error code when sending failed. */
  requestGraceful(): CleanupError | undefined;
  /** Force every member to stop (SIGKILL to the group / job termination). */
  force(): CleanupError | undefined;
  /** Whether no live member is left (zombies count as gone). */
  isEmpty(): Promise<boolean>;
  /**
   * Whether emptiness can be observed after a natural exit, so leftover members can be found and
   * cleaned up (a process group can; the taskkill fallback cannot, so it does not try).
   */
  readonly findsLeftovers: boolean;
  /** Tells the adapter that the root process has exited. */
  markRootExited?(): void;
  /** The error to report when emptiness could not be confirmed after the final wait. */
  readonly unconfirmedError: CleanupError;
  /** Release OS resources (job handles); idempotent. */
  dispose(): void;
}
