// What one execution is started with (the launch plan's last step, runtime/launch.ts).

import type { SpoolSource } from "../output/types.js";
import type { InlineBudget } from "../output/inline-budget.js";
import type { LaunchSpec, StartedChild } from "../process/spawn.js";
import type { ProcessTree } from "../process/tree.js";
import type { ArtifactPolicy } from "../programs/types.js";
import type { ProgramSelection } from "./types.js";

export interface ExecutionSpec {
  /** The execution id, when the caller chose it before the spawn (the audit's exec-start, §22.1). */
  id?: string;
  launch: LaunchSpec;
  input?: Buffer;
  timeoutMs: number;
  gracePeriodMs: number;
  finalTerminationWaitMs: number;
  artifactPolicy: ArtifactPolicy;
  inlineBudget: InlineBudget;
  artifacts?: SpoolSource;
  selection: ProgramSelection;
  /** The execution may outlive its call (§19): spool past the inline limit whatever the policy. */
  mayOutliveCall?: boolean;
  /** Started with `background: true` (it holds a background slot, not a foreground one). */
  background?: boolean;
  /** Sees every output chunk as it is read (the audit log's stream hashes, §22). */
  observeOutput?: (stream: "stdout" | "stderr", chunk: Uint8Array) => void;
  /** The process-tree adapter of a confined launch (§20); absent: the platform's usual one. */
  treeFor?: (child: StartedChild) => ProcessTree;
  /** Whether the sandbox started the program in the pinned cwd (§20.1 item 7); absent: yes. */
  confirmStart?: (child: StartedChild) => Promise<boolean>;
}
