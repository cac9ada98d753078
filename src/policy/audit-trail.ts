// The audit log writer (SPEC §22): JSON Lines appended with one write(2) per line (O_APPEND), one
// hash chain per server process (`chain`, `seq`, `prev`), never an environment value, input or
// output byte. A record that cannot be written closes the gate: nothing runs unrecorded.

import fs from "node:fs";
import path from "node:path";
import { CommandError, errnoCode } from "../errors.js";
import { execRecorder, type ExecRecorder } from "./audit-exec.js";
import { AuditSealer } from "./audit-sealer.js";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./constants.js";
import { argsDigest, randomId, sha256Hex } from "./digest.js";
import type { AuditArgsMode, PolicyProgram } from "./types.js";

export type { ExecOutcome, ExecRecorder, ExecStart } from "./audit-exec.js";

type Fields = Record<string, unknown>;

/** What chain-start records about the server. */
export interface ChainStartFacts {
  serverVersion: string;
  mode: string;
  manifestPath?: string;
  roots: readonly string[];
}

/** The call facts the audit records carry. */
export interface AuditCall {
  program: PolicyProgram;
  args: readonly string[];
  cwd: string;
}

/** Where the trail sends a copy of each record (the system log, §22.1), when configured. */
export interface AuditCopy {
  /** Sends one record's summary; never throws, never blocks. */
  send(record: AuditCopyRecord): void;
  /** How many sends failed so far. */
  failures(): number;
  /** What system_environment reports: the configured target. */
  readonly target: string;
  /** Flushes what is queued (bounded in time) and closes. */
  close(): Promise<void>;
}

/** What the copy of one record says (never the arguments). */
export interface AuditCopyRecord {
  event: string;
  chain: string;
  seq: number;
  seal: number | null;
  sha256: string;
  program: string | null;
  exitCode: number | null;
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** The open audit log of this server process: one chain. */
export class AuditTrail {
  readonly chain = randomId();
  private seq = 0;
  private prev: string | null = null;
  private failure: string | undefined;
  private ended = false;
  private readonly sealer: AuditSealer;

  private constructor(
    readonly path: string,
    readonly argsMode: AuditArgsMode,
    private readonly fd: number,
    private readonly identity: fs.Stats,
    private readonly onFailure: (message: string) => void,
    /** The system-log copy (§22.1), when configured. */
    readonly copy: AuditCopy | undefined,
  ) {
    this.sealer = new AuditSealer(path, fd);
  }

  /** Whether the log is sealed now (a seal state beside it, §22.1). */
  get sealed(): boolean {
    return this.sealer.sealed();
  }

  /** Opens (creating 0600, its directory 0700) and writes chain-start; AUDIT_UNAVAILABLE if not. */
  static open(
    file: string,
    argsMode: AuditArgsMode,
    facts: ChainStartFacts,
    onFailure: (message: string) => void = () => {},
    copy?: AuditCopy,
  ): AuditTrail {
    const target = path.resolve(file);
    let fd: number;
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      fd = fs.openSync(
        target,
        fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | NOFOLLOW,
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
    const trail = new AuditTrail(target, argsMode, fd, stats, onFailure, copy);
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
      void copy?.close();
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

  /** Starts recording one admitted execution: exec-start before the spawn, exec at its end. */
  execution(
    call: AuditCall,
    decision: "allow" | "approved",
    client: { name: string; version: string } | undefined,
  ): ExecRecorder {
    const facts = {
      client: client ? { name: client.name, version: client.version } : null,
      program: call.program.name,
      ...this.argsFields(call.args),
      cwd: call.cwd,
    };
    return execRecorder(facts, decision, (event, fields) =>
      event === "exec-start" ? this.writeOrThrow(event, fields) : this.write(event, fields),
    );
  }

  /** Clean shutdown: chain-end with the final seq, then the copy is flushed; idempotent. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.write("chain-end", this.copy ? { syslogFailures: this.copy.failures() } : {});
    this.ended = true;
    this.sealer.close();
    await this.copy?.close();
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

  /**
   * One record, one write(2) — sealed when the log has a seal state (§22.1); a short or failed
   * write marks the log failed for good. The system-log copy follows a written record.
   */
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
    let appended;
    try {
      appended = this.sealer.append(JSON.stringify(record));
    } catch (error) {
      const code = errnoCode(error);
      const detail = code !== "UNKNOWN" ? code : error instanceof Error ? error.message : code;
      this.fail(`writing the audit log ${this.path} failed (${detail})`);
      return;
    }
    this.prev = sha256Hex(appended.line);
    this.copy?.send({
      event,
      chain: this.chain,
      seq: this.seq,
      seal: appended.sealIndex,
      sha256: this.prev,
      program: typeof fields.program === "string" ? fields.program : null,
      exitCode: typeof fields.exitCode === "number" ? fields.exitCode : null,
    });
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
