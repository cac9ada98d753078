// The shapes the Command Runtime takes and returns (SPEC §3, §4, §19).

import type { ArtifactPolicy, ProgramPolicy, VariantSetReport } from "../programs/types.js";

export type StreamName = "stdout" | "stderr";

/** A stream's bounded head+tail excerpt with exact byte accounting (§7). */
export interface StreamOutput {
  text: string;
  truncated: boolean;
  totalBytes: number;
  omittedBytes: number;
  lossyUtf8: boolean;
}

export type CleanupError =
  | "FINAL_WAIT_EXPIRED"
  | "PIPES_HELD_OPEN"
  | "SIGNAL_FAILED"
  | "JOB_ACTIVE_PROCESSES_REMAIN"
  | "TASKKILL_FALLBACK_UNCONFIRMED"
  | "WINDOWS_SETUP_UNAVAILABLE";

export type TerminationAdapter =
  "natural" | "unix-process-group" | "windows-job-object" | "windows-taskkill-fallback";

export type TerminationReason = "timeout" | "cancelled" | null;

export interface TerminationOutcome {
  reason: TerminationReason;
  gracefulRequested: boolean;
  forceUsed: boolean;
  treeCleaned: boolean | null;
  cleanupError?: CleanupError;
  diagnostics: { adapter: TerminationAdapter; [key: string]: unknown };
}

export type ArtifactStatus = "not-requested" | "discarded" | "published" | "unavailable";
export type ArtifactUnavailableReason =
  "STREAM_CAP" | "QUOTA" | "STORE_UNAVAILABLE" | "LOCK_TIMEOUT" | "WRITE_FAILED";

export interface ArtifactOutcome {
  status: ArtifactStatus;
  id?: string;
  reason?: ArtifactUnavailableReason;
}

/** What actually ran (§4, §12). */
export interface ProgramSelection {
  logicalName: string;
  executable: string;
  version?: string;
  requirement?: string;
  source?: string;
  adapter?: string;
}

/** The result of one finished execution (§4). */
export interface CanonicalResult {
  status: "completed";
  executionId: string;
  exitCode: number | null;
  signal: string | null;
  stdout: StreamOutput;
  stderr: StreamOutput;
  timedOut: boolean;
  cancelled: boolean;
  termination: TerminationOutcome;
  artifact: ArtifactOutcome;
  programSelection: ProgramSelection;
  durationMs: number;
  inputBytes: number;
}

/** A snapshot of an execution still running after its caller stopped waiting (§19). */
export interface RunningSnapshot {
  status: "running";
  executionId: string;
  elapsedMs: number;
  stdout: StreamOutput;
  stderr: StreamOutput;
  programSelection: ProgramSelection;
  match?: { stream: StreamName; offset: number; text: string };
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
}

export interface ExecOptions {
  signal?: AbortSignal;
  /** Wait for the end whatever yieldMs says (the CLI's `exec`). */
  noYield?: boolean;
  onProgress?: (elapsedMs: number, message: string) => void;
}

export type OutputEncoding = "utf8" | "base64";

/** One page of a stored stream (§3.3). */
export interface OutputPage {
  bytes: number;
  nextOffset: number;
  eof: boolean;
  encoding: OutputEncoding;
  text?: string;
  lossyUtf8?: boolean;
  base64?: string;
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
}

export interface LimitsReport {
  maxConcurrentExecutions: number;
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputBytes: number;
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
  limits: LimitsReport;
}

export type { ArtifactPolicy };
