// How one execution is stopped (SPEC §6.5, §19): the termination reason, set once by the first
// stop (timeout, cancel or shutdown) and only while the phase is `running`; the grace a cancel may
// shorten; and the shutdown mode (a short grace, then the termination's waits are cut short).
// The phase itself stays the Lifecycle's (lifecycle.ts): this only reads it.

import { SHUTDOWN_KILL_AFTER_MS } from "../limits.js";
import { terminateTree, type TerminationSteps } from "../process/terminate.js";
import type { ProcessTree } from "../process/tree.js";
import type { ExecutionSpec } from "./execution-spec.js";
import type { Lifecycle } from "./lifecycle.js";
import type { TerminationReason } from "./types.js";

/** At shutdown the forced kill gets this long to be confirmed (within the 2 s exit bound). */
const SHUTDOWN_FINAL_WAIT_MS = 500;

/** The termination waits an execution was started with. */
type TerminationWaits = Pick<ExecutionSpec, "gracePeriodMs" | "finalTerminationWaitMs">;

/** The stop requests of one execution, and the termination they lead to. */
export class ExecutionStop {
  /** Resolves at the first stop accepted. */
  readonly requested: Promise<void>;
  private resolveRequested!: () => void;
  private current: TerminationReason = null;
  private shuttingDown = false;
  private graceOverrideMs: number | undefined;
  /** Made only when a termination or a shutdown needs it (most executions never do). */
  private abort: AbortController | undefined;

  constructor(
    private readonly lifecycle: Pick<Lifecycle, "phase">,
    private readonly waits: TerminationWaits,
  ) {
    this.requested = new Promise((resolve) => (this.resolveRequested = resolve));
  }

  /** Why the tree was stopped: null when nothing stopped it before the root exited. */
  get reason(): TerminationReason {
    return this.current;
  }

  /** Whether the server is shutting down (the artifact is then abandoned). */
  get inShutdown(): boolean {
    return this.shuttingDown;
  }

  /** A stop for `reason`; the first reason wins, and none is taken once the root exited. */
  request(reason: Exclude<TerminationReason, null>): void {
    if (this.current !== null || this.lifecycle.phase !== "running") return;
    this.current = reason;
    this.resolveRequested();
  }

  /** A cancel, with the grace it asks for unless another reason already won. */
  cancel(gracePeriodMs?: number): void {
    if (gracePeriodMs !== undefined && this.current === null) this.graceOverrideMs = gracePeriodMs;
    this.request("cancelled");
  }

  /** Server shutdown: cancel with short grace; the termination's waits end after it. */
  shutdown(): void {
    this.shuttingDown = true;
    this.request("cancelled");
    setTimeout(() => this.controller().abort(), SHUTDOWN_KILL_AFTER_MS).unref();
  }

  /** TERM → grace → KILL → confirm (process/terminate.ts), with the waits of this mode. */
  terminate(tree: ProcessTree): Promise<TerminationSteps> {
    const shutdown = this.shuttingDown;
    return terminateTree(
      tree,
      {
        gracePeriodMs: shutdown
          ? SHUTDOWN_KILL_AFTER_MS
          : (this.graceOverrideMs ?? this.waits.gracePeriodMs),
        finalTerminationWaitMs: shutdown
          ? SHUTDOWN_FINAL_WAIT_MS
          : this.waits.finalTerminationWaitMs,
      },
      this.controller().signal,
    );
  }

  private controller(): AbortController {
    return (this.abort ??= new AbortController());
  }
}
