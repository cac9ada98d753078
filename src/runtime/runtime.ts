// The Command Runtime: one deep interface behind which every execution lives (ARCHITECTURE.md).
// The MCP server and the CLI are thin adapters over it.

import path from "node:path";
import { CommandError } from "../errors.js";
import type { ProgramCatalog } from "../programs/catalog.js";
import type { RegisteredProgram } from "../programs/types.js";
import type { Root } from "../roots/roots.js";
import { authorizeCwd } from "../roots/roots.js";
import { Execution } from "./execution.js";
import { buildEnvironmentReport } from "./inspect.js";
import type { ArtifactBackend, LaunchPlan, NodeLauncher } from "./ports.js";
import type { RuntimeSettings } from "./config.js";
import type {
  CanonicalResult,
  EnvironmentReport,
  ExecOptions,
  ExecRequest,
  OutputEncoding,
  OutputPage,
  StreamName,
} from "./types.js";
import {
  checkArgs,
  checkCmdScriptArgs,
  checkInput,
  foregroundTimeout,
} from "./validate-request.js";

export interface RuntimeOptions {
  catalog: ProgramCatalog;
  roots: Root[];
  settings: RuntimeSettings;
  serverName: string;
  serverVersion: string;
  artifacts?: ArtifactBackend;
  node?: NodeLauncher;
  platform?: NodeJS.Platform;
}

/** How long close() waits for executions to report after shutting them down. */
const CLOSE_WAIT_MS = 1_800;

/** The Command Runtime. */
export class CommandRuntime {
  private readonly active = new Set<Execution>();
  private slotsInUse = 0;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: RuntimeOptions) {}

  /** What system_environment returns (§3.2). */
  inspect(): EnvironmentReport {
    return buildEnvironmentReport(this.options);
  }

  /** Runs one program to its Canonical Result; rejects only with coded request errors. */
  async execute(request: ExecRequest, options: ExecOptions = {}): Promise<CanonicalResult> {
    const execution = await this.startForeground(request);
    return this.await(execution, options);
  }

  /** Pages a published artifact (§3.3). */
  async readOutput(
    id: string,
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
  ): Promise<OutputPage> {
    this.assertOpen();
    if (!this.options.artifacts) {
      throw new CommandError("ARTIFACT_NOT_FOUND", `no artifact ${id}: the artifact store is off`);
    }
    return this.options.artifacts.read(id, stream, offset, limit, encoding);
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
    const all = Promise.allSettled(running.map((e) => e.result));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS))]);
    await this.options.artifacts?.close();
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
    const onAbort = () => execution.cancel();
    if (options.signal?.aborted) execution.cancel();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const stopProgress = options.onProgress ? execution.onProgress(options.onProgress) : undefined;
    try {
      return await execution.result;
    } finally {
      stopProgress?.();
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Validates, takes a slot, resolves cwd and program, and spawns. */
  private async startForeground(request: ExecRequest): Promise<Execution> {
    this.assertOpen();
    const program = this.program(request.program);
    const args = checkArgs(request.args);
    const timeoutMs = foregroundTimeout(
      program,
      request.timeoutMs,
      this.options.settings.defaultTimeoutMs,
    );
    const input = checkInput(program, request.input);
    checkCmdScriptArgs(program, args);
    this.takeSlot();
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        this.slotsInUse--;
      }
    };
    try {
      const cwd = await authorizeCwd(this.options.roots, request.cwd);
      const plan = await this.options.node?.select(program.name, cwd);
      const execution = await Execution.start({
        launch: this.launchSpec(program, plan, args, cwd, input !== undefined),
        input,
        timeoutMs,
        gracePeriodMs: program.policy.gracePeriodMs,
        finalTerminationWaitMs: program.policy.finalTerminationWaitMs,
        artifactPolicy: program.policy.artifactPolicy,
        projection: {
          maxOutputBytes: this.options.settings.maxOutputBytes,
          headBytes: this.options.settings.inlineHeadBytes,
        },
        artifacts: this.options.artifacts,
        selection: plan?.selection ?? { logicalName: program.name, executable: program.executable },
      });
      this.active.add(execution);
      void execution.result.finally(() => {
        this.active.delete(execution);
        release();
      });
      return execution;
    } catch (error) {
      release();
      throw error;
    }
  }

  private launchSpec(
    program: RegisteredProgram,
    plan: LaunchPlan | undefined,
    args: string[],
    cwd: string,
    stdinPipe: boolean,
  ) {
    let env = program.env;
    if (plan) {
      const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
      const current = env[key];
      env = { ...env, [key]: current ? plan.pathPrepend + path.delimiter + current : plan.pathPrepend };
    }
    return {
      command: plan?.command ?? program.spawnPath,
      args: plan ? [...plan.argsPrefix, ...args] : args,
      cwd,
      env,
      stdinPipe,
      platform: this.options.platform,
    };
  }

  private program(name: unknown): RegisteredProgram {
    const program = typeof name === "string" ? this.options.catalog.programs.get(name) : undefined;
    if (!program) {
      const names = [...this.options.catalog.programs.keys()].sort();
      throw new CommandError(
        "PROGRAM_NOT_REGISTERED",
        `program must be one of the registered programs (${names.join(", ") || "none"}), ` +
          `got ${typeof name === "string" ? JSON.stringify(name) : typeof name}`,
      );
    }
    return program;
  }

  private takeSlot(): void {
    const max = this.options.settings.maxConcurrentExecutions;
    if (this.slotsInUse >= max) {
      throw new CommandError(
        "CONCURRENCY_LIMIT",
        `${max} executions are already running (--max-concurrent-executions); ` +
          `wait for one to finish and retry`,
      );
    }
    this.slotsInUse++;
  }
}
