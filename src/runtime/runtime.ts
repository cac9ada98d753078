// The Command Runtime: one deep interface behind which every execution lives (ARCHITECTURE.md).
// The MCP server and the CLI are thin adapters over it.

import { CommandError, quoteValue } from "../errors.js";
import { CANCEL_RETURN_WITHIN_MS } from "../limits.js";
import type { Caller } from "../policy/gate.js";
import type { RegisteredProgram } from "../programs/types.js";
import type { Execution } from "./execution.js";
import { launchExecution, type ExecutionPlan } from "./launch.js";
import { HandleRegistry } from "./handles.js";
import { buildEnvironmentReport } from "./inspect.js";
import { readOutput, type OutputRequest } from "./reads.js";
import { waitFor, type WaitRequest } from "./wait.js";
import { Slots, type Lane } from "./slots.js";
import { registrationHint } from "./unregistered.js";
import type { GrepPage } from "../search/grep.js";
import type { RuntimeOptions } from "./options.js";
import type {
  CanonicalResult,
  EnvironmentReport,
  ExecOptions,
  ExecRequest,
  ExecutionReport,
  OutputPage,
} from "./types.js";
import {
  backgroundTimeout,
  checkArgs,
  checkCmdScriptArgs,
  checkGracePeriod,
  checkInput,
  checkYield,
  foregroundTimeout,
} from "./validate-request.js";
import { within } from "../within.js";

export type { RuntimeOptions } from "./options.js";
export type { OutputRequest } from "./reads.js";
export type { WaitRequest } from "./wait.js";

/** How long close() waits for executions to report after shutting them down. */
const CLOSE_WAIT_MS = 1_800;

/** The Command Runtime. */
export class CommandRuntime {
  private readonly active = new Set<Execution>();
  private readonly handles = new HandleRegistry();
  private readonly slots: Slots;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: RuntimeOptions) {
    this.slots = new Slots(
      {
        foreground: options.settings.maxConcurrentExecutions,
        background: options.settings.maxBackgroundExecutions,
      },
      this.handles,
    );
  }

  /** What system_environment returns (§3.2). */
  inspect(): EnvironmentReport {
    return buildEnvironmentReport(this.options);
  }

  /**
   * Runs one program: resolves to its Canonical Result, or to a running handle when it outlives
   * `yieldMs` or runs in the background (§19). Rejects only with coded request errors.
   */
  async execute(request: ExecRequest, options: ExecOptions = {}): Promise<ExecutionReport> {
    this.assertOpen();
    const program = this.program(request.program);
    if (request.background) return this.startBackground(program, request, options.caller);
    const timeoutMs = foregroundTimeout(
      program,
      request.timeoutMs,
      this.options.settings.defaultTimeoutMs,
    );
    const yieldMs = checkYield(request.yieldMs) ?? this.options.settings.yieldMs;
    const mayOutliveCall = !options.noYield && timeoutMs > yieldMs;
    const execution = await this.start(
      program,
      request,
      timeoutMs,
      "foreground",
      mayOutliveCall,
      options.caller,
    );
    if (!mayOutliveCall) return this.await(execution, options);
    return this.awaitOrYield(execution, yieldMs, options);
  }

  /** system_wait: the completed result as soon as it is there, else a snapshot after waitMs. */
  async wait(request: WaitRequest, options: ExecOptions = {}): Promise<ExecutionReport> {
    this.assertOpen();
    return waitFor(request, this.handles, options);
  }

  /** system_cancel: terminate the tree (§6.5) and return the completed result, or a snapshot. */
  async cancel(executionId: string, gracePeriodMs?: number): Promise<ExecutionReport> {
    this.assertOpen();
    const execution = this.handles.get(executionId);
    execution.cancel(checkGracePeriod(gracePeriodMs));
    const result = await within(execution.result, CANCEL_RETURN_WITHIN_MS, undefined);
    return result ?? (await execution.snapshot());
  }

  /** Pages a published artifact, or a handed-out execution's output (§3.3, §19). */
  readOutput(request: OutputRequest, signal?: AbortSignal): Promise<OutputPage | GrepPage> {
    this.assertOpen();
    return readOutput(request, this.handles, this.options.artifacts, signal);
  }

  /** Shuts every execution down (SIGTERM, SIGKILL after 1 s); idempotent. */
  close(): Promise<void> {
    this.closing = true;
    this.closed ??= this.shutdownAll();
    return this.closed;
  }

  /** Whether close() was called. */
  get isClosing(): boolean {
    return this.closing;
  }

  private async shutdownAll(): Promise<void> {
    const running = [...this.active];
    for (const execution of running) execution.shutdown();
    await within(Promise.allSettled(running.map((e) => e.result)), CLOSE_WAIT_MS, undefined);
    await this.handles.clear();
    await this.options.audit?.close();
    await this.options.artifacts?.close();
    await this.options.groups?.close();
    this.options.confinement?.close();
  }

  private assertOpen(): void {
    if (this.closing) {
      throw new CommandError(
        "RUNTIME_CLOSING",
        "the server is shutting down and takes no new calls; retry after it restarts",
      );
    }
  }

  private async await(execution: Execution, options: ExecOptions): Promise<CanonicalResult> {
    const detach = this.attach(execution, options);
    try {
      return await execution.result;
    } finally {
      detach();
    }
  }

  /** Waits up to yieldMs; then hands out a running handle (cancellation before that kills). */
  private async awaitOrYield(
    execution: Execution,
    yieldMs: number,
    options: ExecOptions,
  ): Promise<ExecutionReport> {
    const detach = this.attach(execution, options);
    try {
      const result = await within(execution.result, yieldMs, undefined);
      return result ?? (await this.handOut(execution));
    } finally {
      detach();
    }
  }

  /** Ties the caller's abort signal and progress callback to an execution; returns the undo. */
  private attach(execution: Execution, options: ExecOptions): () => void {
    const { signal, onProgress } = options;
    const onAbort = () => execution.cancel();
    if (signal?.aborted) execution.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    const stopProgress = onProgress ? execution.onProgress(onProgress) : undefined;
    return () => {
      stopProgress?.();
      signal?.removeEventListener("abort", onAbort);
    };
  }

  private async handOut(execution: Execution): Promise<ExecutionReport> {
    this.handles.add(execution);
    await execution.handOut();
    return execution.completedResult ?? (await execution.snapshot());
  }

  private async startBackground(
    program: RegisteredProgram,
    request: ExecRequest,
    caller?: Caller,
  ): Promise<ExecutionReport> {
    if (!program.policy.allowBackground) {
      throw new CommandError(
        "BACKGROUND_NOT_ALLOWED",
        `${program.name} may not run in the background (its policy.allowBackground is false); ` +
          `run it in the foreground, or ask the administrator to allow it in the manifest`,
      );
    }
    checkYield(request.yieldMs);
    const timeoutMs = backgroundTimeout(program, request.timeoutMs);
    const execution = await this.start(program, request, timeoutMs, "background", true, caller);
    const report = this.handOut(execution);
    await this.options.groups?.persist();
    return report;
  }

  /** Validates, takes a slot, and launches (launch.ts); the slot is held until the tree ends. */
  private async start(
    program: RegisteredProgram,
    request: ExecRequest,
    timeoutMs: number,
    lane: Lane,
    mayOutliveCall: boolean,
    caller?: Caller,
  ): Promise<Execution> {
    const args = checkArgs(request.args);
    const input = checkInput(program, request.input);
    checkCmdScriptArgs(program, args);
    const slot = this.slots.take(lane);
    const plan: ExecutionPlan = {
      program,
      args,
      input,
      cwd: request.cwd,
      approvalId: request.approvalId,
      timeoutMs,
      mayOutliveCall,
      background: lane === "background",
      caller,
    };
    try {
      return await launchExecution(
        {
          options: this.options,
          assertOpen: () => this.assertOpen(),
          spawned: (execution, confined) => {
            this.active.add(execution);
            this.options.groups?.add(execution.pid);
            void execution.result
              .finally(() => {
                this.active.delete(execution);
                this.options.groups?.remove(execution.pid);
                slot.release();
                void confined?.dispose();
              })
              .catch(() => {});
            // close() began while this one was spawning: it must not outlive the server.
            if (this.closing) execution.shutdown();
          },
        },
        plan,
      );
    } catch (error) {
      slot.release();
      throw error;
    }
  }

  /** PROGRAM_NOT_REGISTERED's advice to the administrator: how `name` gets registered. */
  registrationHint(name: unknown): string {
    return registrationHint(this.options.catalog, name);
  }

  private program(name: unknown): RegisteredProgram {
    const program = typeof name === "string" ? this.options.catalog.programs.get(name) : undefined;
    if (!program) {
      const names = [...this.options.catalog.programs.keys()].sort();
      throw new CommandError(
        "PROGRAM_NOT_REGISTERED",
        `program must be one of the registered programs (${names.join(", ") || "none"}), ` +
          `got ${typeof name === "string" ? quoteValue(name) : typeof name}. ` +
          this.registrationHint(name),
      );
    }
    return program;
  }
}
