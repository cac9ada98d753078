// The shapes the Command Runtime takes and returns (SPEC §3, §4, §19), composed from the types
// each stage owns (process/, output/, artifacts/, programs/).

import type { RulesPolicyReport } from "../policy/enforceability.js";
import type { Caller } from "../policy/gate.js";
import type { Rule } from "../policy/types.js";
import type { ArtifactOutcome } from "../artifacts/types.js";
import type { SandboxAdapterInfo, SandboxPolicy } from "../confinement/types.js";
import type { StreamName, StreamOutput } from "../output/types.js";
import type { ExitFacts, TerminationOutcome } from "../process/types.js";
import type {
  ArtifactPolicy,
  ProgramPolicy,
  ProgramSelection,
  VariantSetReport,
} from "../programs/types.js";

export type {
  ArtifactOutcome,
  ArtifactStatus,
  ArtifactUnavailableReason,
} from "../artifacts/types.js";
export type {
  LivePage,
  OutputEncoding,
  OutputPage,
  StreamName,
  StreamOutput,
} from "../output/types.js";
export type {
  CleanupError,
  TerminationAdapter,
  TerminationOutcome,
  TerminationReason,
} from "../process/types.js";
export type { ProgramSelection } from "../programs/types.js";

/** The result of one finished execution (§4); fields in the §7 key order. */
export interface CanonicalResult extends ExitFacts {
  status: "completed";
  executionId: string;
  /** The physical directory the process started in. */
  cwd: string;
  artifact: ArtifactOutcome;
  programSelection: ProgramSelection;
  termination: TerminationOutcome;
  inputBytes: number;
  stdout: StreamOutput;
  stderr: StreamOutput;
}

/** A snapshot of an execution still running after its caller stopped waiting (§19, §7 order). */
export interface RunningSnapshot {
  status: "running";
  executionId: string;
  elapsedMs: number;
  /** The effective timeout: when the tree will be killed, counted from spawn. */
  timeoutMs: number;
  cwd: string;
  match?: { stream: StreamName; offset: number; text: string };
  programSelection: ProgramSelection;
  stdout: StreamOutput;
  stderr: StreamOutput;
}

export type ExecutionReport = CanonicalResult | RunningSnapshot;

/** A validated-by-schema system_exec request (runtime re-checks limits). */
export interface ExecRequest {
  program: string;
  args?: string[];
  cwd?: string;
  timeoutMs?: number;
  input?: string;
  yieldMs?: number;
  background?: boolean;
  /** §21: the id of a human approval for exactly this call. */
  approvalId?: string;
}

export interface ExecOptions {
  signal?: AbortSignal;
  /** Wait for the end whatever yieldMs says (the CLI's `exec`). */
  noYield?: boolean;
  onProgress?: (elapsedMs: number, message: string) => void;
  /** Who calls, and how to ask its human for an approval (§21). */
  caller?: Caller;
}

export interface ProgramReport {
  executable: string;
  declaredCandidate: string;
  kind: "native" | "cmd-script";
  argumentSemantics: "literal" | "cmd-reparsed";
  required: boolean;
  policy: ProgramPolicy;
  path?: string[];
  variantSet?: VariantSetReport;
  rules?: Rule[];
  /** §20: the effective sandbox policy, null when the program runs unconfined. */
  sandbox: SandboxPolicy | null;
}

export interface LimitsReport {
  maxConcurrentExecutions: number;
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputBytes: number;
  inlineBudgetBytes: number;
  inlineHeadBytes: number;
  maxArgs: number;
  maxArgBytes: number;
  maxArgsTotalBytes: number;
  maxInputBytes: number;
  artifactRetentionMs: number;
  artifactQuotaBytes: number;
  artifactMaxStreamBytes: number;
  outputPageMaxBytes: number;
  outputPageMaxUtf8Bytes: number;
  outputPageDefaultBytes: number;
  defaultYieldMs: number;
  maxBackgroundExecutions: number;
  maxWaitMs: number;
  handleRetentionMs: number;
  handleRetentionCount: number;
}

/** What system_environment returns (§3.2). */
export interface EnvironmentReport {
  server: { name: string; version: string };
  platform: string;
  arch: string;
  mode: "configured" | "automatic-discovery";
  cwd: string;
  roots: string[];
  programs: Record<string, ProgramReport>;
  path: string[];
  environmentNames: string[];
  /** Startup variables `inherit` or a `removeMatching` pattern dropped (§23), sorted; names only. */
  removedByPattern: string[];
  limits: LimitsReport;
  /** §21.1: whether the manifest's rules can hold, as a whole. */
  policy: RulesPolicyReport;
  /** §22: the audit log in use, or null. */
  audit: {
    path: string;
    args: "digest" | "full";
    /** §22.1: a seal state is beside the log now. */
    sealed: boolean;
    /** §22.1: where each record's copy goes (`unix:/dev/log` for `syslog: true`), or null. */
    syslog: string | null;
  } | null;
  /** §20: the confinement adapter in use, null when no program is confined. */
  sandbox: SandboxAdapterInfo | null;
}

export type { ArtifactPolicy };
