// The records of one execution (SPEC §22, §22.1): `exec-start` written (and sealed) before the spawn,
// so that a program that kills the server cannot keep its own start out of the log, and `exec` at
// the end with the outcome — also when the start failed after exec-start (the record carries the
// error code). Stream hashes are computed while the output is read (no second read).

import { createHash, type Hash } from "node:crypto";
import type { ExitFacts } from "../process/types.js";

type Fields = Record<string, unknown>;
type StreamName = "stdout" | "stderr";

/** What is known once the program is resolved and confined, just before the spawn. */
export interface ExecStart {
  executionId: string;
  executable: string;
  sandbox?: unknown;
}

/** The end of an execution as the exec record needs it (a subset of the Canonical Result). */
export interface ExecOutcome extends ExitFacts {
  executionId: string;
  artifact: { id?: string };
  programSelection: { executable: string; sandbox?: unknown };
}

/** Writes the records of one admitted execution. */
export interface ExecRecorder {
  /** exec-start; throws AUDIT_UNAVAILABLE when it cannot be written (then nothing may run). */
  started(start: ExecStart): void;
  observe(stream: StreamName, chunk: Uint8Array): void;
  finish(outcome: ExecOutcome): void;
  /** The start failed after exec-start: the exec record carries `error` (the code). */
  failed(start: ExecStart, code: string): void;
}

/** The call's facts (client, program, args or argsDigest, cwd) in record order. */
export type CallFacts = Fields;

/** A recorder writing through `write`, which throws only for exec-start. */
export function execRecorder(
  call: CallFacts,
  decision: "allow" | "approved",
  write: (event: "exec-start" | "exec", fields: Fields) => void,
): ExecRecorder {
  const hashes: Record<StreamName, Hash> = {
    stdout: createHash("sha256"),
    stderr: createHash("sha256"),
  };
  const bytes: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  const startedAt = performance.now();
  const stream = (name: StreamName) => ({ bytes: bytes[name], sha256: hashes[name].digest("hex") });
  const head = (executionId: string, executable: string, sandbox: unknown) => ({
    executionId,
    client: call.client,
    program: call.program,
    executable,
    ...(call.args !== undefined ? { args: call.args } : { argsDigest: call.argsDigest }),
    cwd: call.cwd,
    sandbox: sandbox ?? null,
    decision,
  });
  return {
    started(start) {
      write("exec-start", head(start.executionId, start.executable, start.sandbox));
    },
    observe(name, chunk) {
      hashes[name].update(chunk);
      bytes[name] += chunk.length;
    },
    finish(outcome) {
      const selection = outcome.programSelection;
      write("exec", {
        ...head(outcome.executionId, selection.executable, selection.sandbox),
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        timedOut: outcome.timedOut,
        cancelled: outcome.cancelled,
        durationMs: outcome.durationMs,
        stdout: stream("stdout"),
        stderr: stream("stderr"),
        artifact: outcome.artifact.id ?? null,
      });
    },
    failed(start, code) {
      write("exec", {
        ...head(start.executionId, start.executable, start.sandbox),
        error: code,
        exitCode: null,
        signal: null,
        timedOut: false,
        cancelled: false,
        durationMs: Math.round(performance.now() - startedAt),
        stdout: stream("stdout"),
        stderr: stream("stderr"),
        artifact: null,
      });
    },
  };
}
