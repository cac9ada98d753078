// One execution as an object with a life of its own: spawned → running → (terminating) →
// draining → publishing → completed. Callers await `result`; it never rejects once spawned.
// Its phase is lifecycle.ts's; how a stop is requested and the tree terminated, execution-stop.ts.

import { performance } from "node:perf_hooks";
import { ExecutionOutput } from "../output/execution-output.js";
import { launch, type StartedChild } from "../process/spawn.js";
import { PosixProcessGroup } from "../process/posix-group.js";
import { WindowsTaskkillTree } from "../process/windows-tree.js";
import type { TerminationSteps } from "../process/terminate.js";
import type { ProcessTree } from "../process/tree.js";
import { writeInput } from "../process/input.js";
import { PIPES_HELD_OPEN_WAIT_MS, PROGRESS_INTERVAL_MS } from "../limits.js";
import type { CanonicalResult, RunningSnapshot } from "./types.js";
import { within } from "../within.js";
import { newExecutionId } from "./execution-id.js";
import type { ExecutionSpec } from "./execution-spec.js";
import { ExecutionStop } from "./execution-stop.js";
import { Lifecycle } from "./lifecycle.js";
import { progressMessage } from "./progress.js";
import { terminationOutcome } from "./termination-outcome.js";
import { SnapshotCursors, type SnapshotView } from "./snapshot-range.js";

/** Extra wait for the root's exit event after its tree was killed. */
const EXIT_AFTER_KILL_WAIT_MS = 500;

interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running (or finished) execution. Create with `Execution.start`. */
export class Execution {
  readonly id: string;
  readonly result: Promise<CanonicalResult>;
  /** False when the sandbox ended without running the program (§20.1 item 7). */
  readonly startConfirmed: Promise<boolean>;
  private readonly startedAt = performance.now();
  private readonly output: ExecutionOutput;
  /** running → terminating → draining → publishing → completed (lifecycle.ts). */
  private readonly lifecycle = new Lifecycle();
  /** The termination reason and how a stop terminates the tree (execution-stop.ts). */
  private readonly stop: ExecutionStop;
  private completed: CanonicalResult | undefined;
  private handedOut = false;
  private readonly doneListeners = new Set<() => void>();
  /** Where the next running snapshot's ranges start (§19 Revision 3). */
  private readonly cursors = new SnapshotCursors();

  private constructor(
    private readonly spec: ExecutionSpec,
    private readonly child: StartedChild,
    private readonly tree: ProcessTree,
  ) {
    this.id = spec.id ?? newExecutionId();
    this.startConfirmed = spec.confirmStart?.(child) ?? Promise.resolve(true);
    this.output = new ExecutionOutput(
      spec.inlineBudget,
      spec.artifactPolicy,
      spec.artifacts,
      spec.mayOutliveCall ?? false,
    );
    if (spec.observeOutput) this.output.observe(spec.observeOutput);
    this.stop = new ExecutionStop(this.lifecycle, spec);
    this.result = this.run().then((result) => {
      this.lifecycle.to("completed");
      this.completed = result;
      for (const listener of this.doneListeners) listener();
      this.doneListeners.clear();
      return result;
    });
  }

  /** Spawns the program; rejects with SPAWN_FAILED when it cannot start. */
  static async start(spec: ExecutionSpec): Promise<Execution> {
    const child = await launch(spec.launch);
    const platform = spec.launch.platform ?? process.platform;
    const tree: ProcessTree =
      spec.treeFor?.(child) ??
      (platform === "win32"
        ? new WindowsTaskkillTree(child.pid)
        : new PosixProcessGroup(child.pid));
    return new Execution(spec, child, tree);
  }

  /** The root process id (= its process group id on POSIX). */
  get pid(): number {
    return this.child.pid;
  }

  /** Whether this execution runs in the background lane. */
  get background(): boolean {
    return this.spec.background ?? false;
  }

  /** Milliseconds since spawn. */
  get elapsedMs(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  /** Whether the Canonical Result is ready. */
  get done(): boolean {
    return this.completed !== undefined;
  }

  /** Cancel — the tree is terminated with reason "cancelled" unless another reason won. */
  cancel(gracePeriodMs?: number): void {
    this.stop.cancel(gracePeriodMs);
  }

  /** The completed result, once there is one. */
  get completedResult(): CanonicalResult | undefined {
    return this.completed;
  }

  /**
   * The execution hands out a running handle (§19): its spool starts now (from byte 0) and is
   * kept after the end for live reads until `release()`.
   */
  async handOut(): Promise<void> {
    this.handedOut = true;
    // Publishing began meanwhile: the artifact is decided, its result is all there is to read.
    if (this.lifecycle.reached("publishing")) return;
    await this.output.forceSpool();
  }

  /** Calls `listener` once the result is ready; returns the unsubscribe function. */
  onDone(listener: () => void): () => void {
    if (this.completed) {
      listener();
      return () => {};
    }
    this.doneListeners.add(listener);
    return () => this.doneListeners.delete(listener);
  }

  /** The output sinks, for live reads and waits. */
  get liveOutput(): ExecutionOutput {
    return this.output;
  }

  /** Drops the kept spool (the handle expired). */
  release(): Promise<void> {
    return this.output.release();
  }

  /** Server shutdown: cancel with short grace, and abandon any unpublished artifact. */
  shutdown(): void {
    this.stop.shutdown();
  }

  /** Report progress about once a second while running (§6.7). */
  onProgress(listener: (elapsedMs: number, message: string) => void): () => void {
    const timer = setInterval(() => {
      if (this.completed) return;
      const elapsed = this.elapsedMs;
      listener(elapsed, progressMessage(elapsed, this.totals));
    }, PROGRESS_INTERVAL_MS);
    return () => clearInterval(timer);
  }

  /** Bytes of each stream so far. */
  get totals(): { stdout: number; stderr: number } {
    return { stdout: this.output.totalBytes("stdout"), stderr: this.output.totalBytes("stderr") };
  }

  /**
   * A running snapshot (§19 running handle, keys in the §7 order) of what is new since the last
   * one: each stream's range from the cursor (or `view`) to the bytes so far; the cursor moves to
   * the range's end. Concurrent calls are served in order, each taking the bytes after the last.
   */
  async snapshot(
    match?: RunningSnapshot["match"],
    view: SnapshotView = {},
  ): Promise<RunningSnapshot> {
    const { stdout, stderr } = await this.cursors.next(this.output, view);
    return {
      status: "running",
      executionId: this.id,
      elapsedMs: this.elapsedMs,
      timeoutMs: this.spec.timeoutMs,
      cwd: this.spec.launch.cwd,
      ...(match && { match }),
      programSelection: this.spec.selection,
      stdout,
      stderr,
    };
  }

  private async run(): Promise<CanonicalResult> {
    const child = this.child;
    const exited = new Promise<ExitInfo>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    void exited.then(() => this.tree.markRootExited?.());
    const drained = Promise.all([
      this.output.consume("stdout", child.stdout),
      this.output.consume("stderr", child.stderr),
    ]);
    const inputBytes = child.stdin ? writeInput(child.stdin, this.spec.input) : Promise.resolve(0);
    const timer = setTimeout(() => this.stop.request("timeout"), this.spec.timeoutMs);

    const first = await Promise.race([exited.then(() => "exit" as const), this.stop.requested]);
    let steps: TerminationSteps | undefined;
    let exit: ExitInfo | undefined;
    let exitAfterKill: Promise<ExitInfo | undefined> | undefined;
    clearTimeout(timer);
    if (first === "exit") {
      // The root exited: from here on a timeout or cancel is too late (the reason stays null).
      // A tree that can hold leftovers is cleaned up first (§6.5), with reason null.
      const leftovers = this.tree.findsLeftovers;
      this.lifecycle.to(leftovers ? "terminating" : "draining");
      exit = await exited;
      this.tree.markRootExited?.();
      if (leftovers) {
        if (!(await this.tree.isEmpty())) steps = await this.stop.terminate(this.tree);
        this.lifecycle.to("draining");
      }
    } else {
      this.lifecycle.to("terminating");
      steps = await this.stop.terminate(this.tree);
      exitAfterKill = within(exited, EXIT_AFTER_KILL_WAIT_MS, undefined);
      this.lifecycle.to("draining");
    }

    // A spool still being created holds the readers back (backpressure): that is not a pipe held
    // open by an escaped descendant, so the 1 s window starts once it exists.
    await this.output.stagingSettled();
    const [pipesClosed, exitLate] = await Promise.all([
      within(
        drained.then(() => true),
        PIPES_HELD_OPEN_WAIT_MS,
        false,
      ),
      exitAfterKill,
    ]);
    exit ??= exitLate;
    if (!pipesClosed) {
      this.output.closePipes();
      await drained;
    }
    this.tree.dispose();
    const termination = terminationOutcome(this.stop.reason, this.tree, steps, pipesClosed);
    const { stdout, stderr } = this.output.snapshots(true);
    this.lifecycle.to("publishing");
    const artifact = this.stop.inShutdown
      ? (await this.output.abandon(), { status: "not-requested" as const })
      : await this.output.finish(this.handedOut);
    const accepted = await inputBytes;
    // Keys in the §7 order: what an agent acts on first, the long excerpts last.
    return {
      status: "completed",
      executionId: this.id,
      exitCode: exit?.code ?? null,
      signal: exit?.signal ?? null,
      timedOut: this.stop.reason === "timeout",
      cancelled: this.stop.reason === "cancelled",
      durationMs: this.elapsedMs,
      cwd: this.spec.launch.cwd,
      artifact,
      programSelection: this.spec.selection,
      termination,
      inputBytes: accepted,
      stdout,
      stderr,
    };
  }
}
