// The launch half of the request pipeline (ARCHITECTURE.md): a request already checked into its
// program, args, input and timeouts runs downhill — authorise the cwd → policy (rules, approvals,
// exec-start in the audit log) → select (Project Node) → pin the cwd → confine → spawn → confirm
// the start. No step goes back to the raw request; each failure after exec-start is recorded.

import { prependToPath } from "../environment/path-list.js";
import { CommandError } from "../errors.js";
import type { Caller } from "../policy/gate.js";
import type { RegisteredProgram } from "../programs/types.js";
import { pinCwd, type PinnedCwd } from "../roots/cwd-pin.js";
import { authorizeCwd } from "../roots/roots.js";
import type { ConfinedLaunch } from "../confinement/index.js";
import { confineLaunch, plannedSelection } from "./confine.js";
import { Execution } from "./execution.js";
import { newExecutionId } from "./execution-id.js";
import type { RuntimeOptions } from "./options.js";
import type { LaunchPlan } from "./ports.js";
import { refusedStart } from "./refused-start.js";

/** A request after validation: everything the launch reads, and nothing raw. */
export interface ExecutionPlan {
  program: RegisteredProgram;
  args: string[];
  input: Buffer | undefined;
  cwd: string | undefined;
  approvalId: string | undefined;
  timeoutMs: number;
  mayOutliveCall: boolean;
  background: boolean;
  caller: Caller | undefined;
}

/** What the runtime supplies: its options, its open check, and what it does with a spawned tree. */
export interface LaunchContext {
  options: RuntimeOptions;
  /** Throws RUNTIME_CLOSING once close() has begun. */
  assertOpen(): void;
  /** Called at once after the spawn (slots, crash registry, shutdown), before the start is confirmed. */
  spawned(execution: Execution, confined: ConfinedLaunch | undefined): void;
}

/** The code an error carries into the audit log's exec record. */
function failureCode(error: unknown): string {
  return error instanceof CommandError ? error.code : "SPAWN_FAILED";
}

/** The spawn of `program` as it runs unconfined (the launcher may wrap it). */
function launchSpec(
  options: RuntimeOptions,
  plan: ExecutionPlan,
  node: LaunchPlan | undefined,
  cwd: string,
  pinned: PinnedCwd,
) {
  const platform = options.platform ?? process.platform;
  const { program, args } = plan;
  const env = node ? prependToPath(program.env, node.pathPrepend, platform) : program.env;
  return {
    command: node?.command ?? program.spawnPath,
    args: node ? [...node.argsPrefix, ...args] : args,
    cwd,
    env,
    stdinPipe: plan.input !== undefined,
    platform: options.platform,
    spawnCwd: pinned.spawnCwd,
    cwdFd: pinned.fd,
  };
}

/** Runs the plan downhill to a started (and confirmed) execution, or throws a coded error. */
export async function launchExecution(ctx: LaunchContext, plan: ExecutionPlan): Promise<Execution> {
  const { options } = ctx;
  const { program, args } = plan;
  const authorised = authorizeCwd(options.roots, plan.cwd);
  const cwd = authorised.path;
  const cwdIdentity = { dev: String(authorised.dev), ino: String(authorised.ino) };
  // §21/§22: rules, approvals and the audit log decide before anything is spawned.
  const gate = { program, args, cwd, cwdIdentity, approvalId: plan.approvalId };
  const admission = await options.policy?.admit(gate, plan.caller);
  const node = await options.node?.select(program.name, cwd);
  ctx.assertOpen(); // close() may have begun while the selection read the disk
  const selection = plannedSelection(
    node?.selection ?? { logicalName: program.name, executable: program.executable },
    program,
    options.confinement,
  );
  // §22.1: exec-start is written (and sealed) before the spawn; every failure after it gets its
  // exec record with the code. A failure to write exec-start itself (AUDIT_UNAVAILABLE) runs nothing.
  const recorder = admission?.recorder;
  const start = { executionId: newExecutionId(), ...selection };
  recorder?.started(start);
  let pinned: PinnedCwd | undefined;
  let confined: ConfinedLaunch | undefined;
  let execution: Execution;
  try {
    // §20.1 item 7: after every wait, the directory must still be the one authorised; the child
    // starts in the descriptor held open from here on.
    pinned = pinCwd(authorised, options.roots, options.platform);
    const launch = launchSpec(options, plan, node, cwd, pinned);
    const rootPaths = options.roots.map((root) => root.path);
    confined = await confineLaunch(program, launch, options.confinement, rootPaths);
    execution = await Execution.start({
      id: start.executionId,
      launch: confined?.launch ?? launch,
      treeFor: confined?.tree,
      confirmStart: confined?.confirmStart,
      input: plan.input,
      timeoutMs: plan.timeoutMs,
      gracePeriodMs: program.policy.gracePeriodMs,
      finalTerminationWaitMs: program.policy.finalTerminationWaitMs,
      artifactPolicy: program.policy.artifactPolicy,
      inlineBudget: options.settings.inlineBudget,
      artifacts: options.artifacts,
      selection,
      mayOutliveCall: plan.mayOutliveCall,
      background: plan.background,
      observeOutput: recorder?.observe,
    });
  } catch (error) {
    await confined?.dispose();
    recorder?.failed(start, failureCode(error));
    throw error;
  } finally {
    pinned?.close();
  }
  ctx.spawned(execution, confined);
  if (confined?.confirmStart && !(await execution.startConfirmed)) {
    try {
      await refusedStart(execution, authorised);
    } catch (error) {
      recorder?.failed(start, failureCode(error));
      throw error;
    }
  }
  if (recorder) void execution.result.then(recorder.finish, () => {});
  return execution;
}
