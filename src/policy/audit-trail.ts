// The audit log writer (SPEC §22): JSON Lines appended with one write(2) per line (O_APPEND), one
// hash chain per server process (`chain`, `seq`, `prev`), never an environment value, input or
// output byte. A record that cannot be written closes the gate: nothing runs unrecorded.

import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CommandError, errnoCode } from "../errors.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./constants.js";
import { argsDigest, randomId, sha256Hex } from "./digest.js";
import type { AuditArgsMode, PolicyProgram } from "./types.js";

type Fields = Record<string, unknown>;
type StreamName = "stdout" | "stderr";

/** What chain-start records about the server. */
export interface ChainStartFacts {
  serverVersion: string;
  mode: string;
  manifestPath?: string;
  roots: readonly string[];
}

/** The end of an execution as the exec record needs it (a subset of the Canonical Result). */
export interface ExecOutcome {
  executionId: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  artifact: { id?: string };
  programSelection: { executable: string; sandbox?: unknown };
}

/** The call facts the audit records carry. */
export interface AuditCall {
  program: PolicyProgram;
  args: readonly string[];
  cwd: string;
}

/** Hashes both streams while they are read (no second read) and writes the exec record. */
export interface ExecRecorder {
  observe(stream: StreamName, chunk: Uint8Array): void;
  finish(outcome: ExecOutcome): void;
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** The open audit log of this server process: one chain. */
export class AuditTrail {
  readonly chain = randomId();
  private seq = 0;
  private prev: string | null = null;
  private failure: string | undefined;
  private ended = false;

  private constructor(
    readonly path: string,
    readonly argsMode: AuditArgsMode,
    private readonly fd: number,
    private readonly identity: fs.Stats,
    private readonly onFailure: (message: string) => void,
  ) {}

  /** Opens (creating 0600, its directory 0700) and writes chain-start; AUDIT_UNAVAILABLE if not. */
  static open(
    file: string,
    argsMode: AuditArgsMode,
    facts: ChainStartFacts,
    onFailure: (message: string) => void = () => {},
  ): AuditTrail {
    const target = path.resolve(file);
    let fd: number;
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      fd = fs.openSync(
        target,
        fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NOFOLLOW,
        PRIVATE_FILE_MODE,
      );
    } catch (error) {
      throw unavailable(`the audit log ${target} cannot be opened (${errnoCode(error)})`);
    }
    const stats = fs.fstatSync(fd);
    if (stats.isFile() && (stats.mode & 0o777) !== PRIVATE_FILE_MODE) {
      try {
        fs.fchmodSync(fd, PRIVATE_FILE_MODE); // an existing file is made 0600 like a new one
      } catch {
        // Not ours to change: it keeps its mode.
      }
    }
    if (!stats.isFile()) {
      fs.closeSync(fd);
      throw unavailable(`the audit log ${target} is not a regular file`);
    }
    const trail = new AuditTrail(target, argsMode, fd, stats, onFailure);
    trail.write("chain-start", {
      serverVersion: facts.serverVersion,
      pid: process.pid,
      startTime: new Date(Date.now() - Math.round(process.uptime() * 1000)).toISOString(),
      mode: facts.mode,
      manifest: manifestFacts(facts.manifestPath),
      roots: [...facts.roots],
    });
    if (trail.failure) {
      fs.closeSync(fd);
      throw unavailable(trail.failure);
    }
    return trail;
  }

  /** AUDIT_UNAVAILABLE when a write failed or the file was removed or replaced since opening. */
  assertWritable(): void {
    if (!this.failure) {
      try {
        const now = fs.statSync(this.path);
        if (now.ino !== this.identity.ino || now.dev !== this.identity.dev) {
          this.fail(`the audit log ${this.path} was replaced since the server opened it`);
        }
      } catch (error) {
        this.fail(`the audit log ${this.path} is gone (${errnoCode(error)})`);
      }
    }
    if (this.failure) throw unavailable(this.failure);
  }

  /** A denied call (§21 deny rule). */
  denied(call: AuditCall, rule: number): void {
    this.writeOrThrow("denied", {
      rule,
      reason: call.program.rules?.[rule]?.reason,
      program: call.program.name,
      ...this.argsFields(call.args),
      cwd: call.cwd,
    });
  }

  /** An approval step: requested, approved, denied or refused; via elicitation or the CLI. */
  approval(id: string, outcome: string, via: "elicitation" | "cli", detail: string): void {
    this.writeOrThrow("approval", { id, outcome, via, detail });
  }

  /** Starts recording one admitted execution; its record is written when it ends. */
  execution(
    call: AuditCall,
    decision: "allow" | "approved",
    client: { name: string; version: string } | undefined,
  ): ExecRecorder {
    const hashes: Record<StreamName, Hash> = {
      stdout: createHash("sha256"),
      stderr: createHash("sha256"),
    };
    const bytes: Record<StreamName, number> = { stdout: 0, stderr: 0 };
    return {
      observe(stream, chunk) {
        hashes[stream].update(chunk);
        bytes[stream] += chunk.length;
      },
      finish: (outcome) => {
        const stream = (name: StreamName) => ({
          bytes: bytes[name],
          sha256: hashes[name].digest("hex"),
        });
        this.write("exec", {
          executionId: outcome.executionId,
          client: client ? { name: client.name, version: client.version } : null,
          program: call.program.name,
          executable: outcome.programSelection.executable,
          ...this.argsFields(call.args),
          cwd: call.cwd,
          sandbox: outcome.programSelection.sandbox ?? null,
          decision,
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
    };
  }

  /** Clean shutdown: chain-end with the final seq; idempotent. */
  close(): void {
    if (this.ended) return;
    this.write("chain-end", {});
    this.ended = true;
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }

  private argsFields(args: readonly string[]): Fields {
    return this.argsMode === "full" ? { args: [...args] } : { argsDigest: argsDigest(args) };
  }

  private writeOrThrow(event: string, fields: Fields): void {
    this.write(event, fields);
    if (this.failure) throw unavailable(this.failure);
  }

  /** One record, one write(2); a short or failed write marks the log failed for good. */
  private write(event: string, fields: Fields): void {
    if (this.failure || this.ended) return;
    const record = {
      event,
      ts: new Date().toISOString(),
      chain: this.chain,
      seq: this.seq,
      prev: this.prev,
      ...fields,
    };
    const line = JSON.stringify(record);
    const bytes = Buffer.from(line + "\n", "utf8");
    try {
      const written = fs.writeSync(this.fd, bytes, 0, bytes.length);
      if (written !== bytes.length) {
        this.fail(
          `a short write to the audit log ${this.path} (${written} of ${bytes.length} bytes)`,
        );
        return;
      }
    } catch (error) {
      this.fail(`writing the audit log ${this.path} failed (${errnoCode(error)})`);
      return;
    }
    this.prev = sha256Hex(line);
    this.seq += 1;
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = message;
    this.onFailure(message);
  }
}

/** The manifest's path and the sha256 of its bytes, or null without one. */
function manifestFacts(manifestPath: string | undefined): Fields | null {
  if (manifestPath === undefined) return null;
  try {
    return { path: manifestPath, sha256: sha256Hex(fs.readFileSync(manifestPath)) };
  } catch {
    return { path: manifestPath, sha256: null };
  }
}

function unavailable(detail: string): CommandError {
  return new CommandError(
    "AUDIT_UNAVAILABLE",
    `${detail}; nothing was run, because an execution that cannot be recorded does not run — ` +
      "ask the administrator to fix the audit log",
  );
}
