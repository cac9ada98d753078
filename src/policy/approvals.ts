// Pending and granted approvals (SPEC §21): one 0600 file per request in the per-user state
// directory, written by the server (pending) and by `approve`/`deny` (decided), claimed once.

import fs from "node:fs";
import path from "node:path";
import { readRegularFileSync } from "../regular-file.js";
import { CommandError, errnoCode } from "../errors.js";
import {
  APPROVAL_ID_PATTERN,
  APPROVAL_VALIDITY_MS,
  APPROVALS_DIR_NAME,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
} from "./constants.js";
import { callDigest, randomId, type CwdIdentity } from "./digest.js";

export type ApprovalStatus = "pending" | "approved" | "denied";

/** One approval file's content. */
export interface ApprovalRecord {
  id: string;
  program: string;
  args: string[];
  cwd: string;
  /** The cwd's device and inode when the approval was requested (SPEC §21.1). */
  cwdIdentity: CwdIdentity;
  manifestPath: string | null;
  reason: string;
  rule: number;
  digest: string;
  status: ApprovalStatus;
  createdAt: string;
  /** Pending: until when it may be approved; approved: until when it may be used. */
  expiresAt: string;
  decidedAt?: string;
}

/** What a request for approval is about. */
export interface ApprovalRequest {
  program: string;
  args: readonly string[];
  cwd: string;
  cwdIdentity: CwdIdentity;
  manifestPath: string | undefined;
  reason: string;
  rule: number;
}

/** Why a presented approval id did not let the call run. */
export type ClaimRefusal = "unknown" | "pending" | "denied" | "expired" | "mismatched" | "used";

export type ClaimOutcome = { ok: true; record: ApprovalRecord } | { ok: false; why: ClaimRefusal };

const SUFFIX = ".json";
const CLAIMED_SUFFIX = ".claimed";
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** An approval record is the args (≤ 256 KiB, §3.1), the cwd and a few fields: far below this. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** The approval files of one user. */
export class ApprovalStore {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a new pending request; returns its record (the id is new and random). */
  create(request: ApprovalRequest): ApprovalRecord {
    this.ensureDir();
    this.sweep();
    const created = this.now();
    const record: ApprovalRecord = {
      id: randomId(),
      program: request.program,
      args: [...request.args],
      cwd: request.cwd,
      cwdIdentity: { dev: request.cwdIdentity.dev, ino: request.cwdIdentity.ino },
      manifestPath: request.manifestPath ?? null,
      reason: request.reason,
      rule: request.rule,
      digest: digestOf(request),
      status: "pending",
      createdAt: new Date(created).toISOString(),
      expiresAt: new Date(created + APPROVAL_VALIDITY_MS).toISOString(),
    };
    this.write(record, "wx");
    return record;
  }

  /** The record of an id, or undefined when there is none (or the id is malformed). */
  read(id: string): ApprovalRecord | undefined {
    if (!APPROVAL_ID_PATTERN.test(id)) return undefined;
    return readRecord(this.file(id));
  }

  /** `approve`/`deny`: decides a pending request (APPROVAL_NOT_FOUND when it cannot be). */
  decide(id: string, status: "approved" | "denied"): ApprovalRecord {
    const record = this.read(id);
    if (!record) {
      throw new CommandError(
        "APPROVAL_NOT_FOUND",
        `no pending approval ${JSON.stringify(id)} in ${this.dir}; expected the 32-hex id ` +
          "an APPROVAL_REQUIRED message gave (it may have been used, or removed after expiring)",
      );
    }
    if (record.status !== "pending") {
      throw new CommandError(
        "APPROVAL_NOT_FOUND",
        `approval ${id} was already ${record.status}; ask the agent to call again for a new id`,
      );
    }
    const decided = this.now();
    if (Date.parse(record.expiresAt) <= decided) {
      throw new CommandError(
        "APPROVAL_NOT_FOUND",
        `approval ${id} expired at ${record.expiresAt}; ask the agent to call again for a new id`,
      );
    }
    const next: ApprovalRecord = { ...record, status, decidedAt: new Date(decided).toISOString() };
    if (status === "approved") {
      next.expiresAt = new Date(decided + APPROVAL_VALIDITY_MS).toISOString();
    }
    this.write(next, "replace");
    return next;
  }

  /**
   * Takes an approval for one execution of exactly this call: it must be approved, unexpired and
   * bound to the same digest. A successful claim removes it, so it never works twice.
   */
  claim(id: string, request: Omit<ApprovalRequest, "reason" | "rule">): ClaimOutcome {
    const record = this.read(id);
    if (!record) return { ok: false, why: "unknown" };
    const digest = digestOf(request);
    const stored = digestOf({ ...record, manifestPath: record.manifestPath ?? undefined });
    if (record.digest !== digest || stored !== digest) return { ok: false, why: "mismatched" };
    if (record.status !== "approved") return { ok: false, why: record.status };
    if (Date.parse(record.expiresAt) <= this.now()) return { ok: false, why: "expired" };
    const claimed = this.file(id) + CLAIMED_SUFFIX;
    try {
      fs.renameSync(this.file(id), claimed);
    } catch {
      return { ok: false, why: "used" }; // another call claimed it first
    }
    const taken = readRecord(claimed);
    fs.rmSync(claimed, { force: true });
    if (!taken || taken.status !== "approved" || taken.digest !== digest) {
      return { ok: false, why: "mismatched" };
    }
    return { ok: true, record: taken };
  }

  private file(id: string): string {
    return path.join(this.dir, id + SUFFIX);
  }

  private ensureDir(): void {
    try {
      fs.mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      fs.chmodSync(this.dir, PRIVATE_DIR_MODE);
    } catch (error) {
      throw new CommandError(
        "APPROVAL_DENIED",
        `this call needs a human approval, but the approvals directory ${this.dir} cannot be ` +
          `created (${errnoCode(error)}); nothing ran — fix its permissions and call again`,
      );
    }
  }

  /** Writes a record 0600: new files exclusively, decisions by rename over the old file. */
  private write(record: ApprovalRecord, how: "wx" | "replace"): void {
    const text = JSON.stringify(record, null, 2) + "\n";
    const target = this.file(record.id);
    const file = how === "wx" ? target : `${target}.${process.pid}.tmp`;
    const fd = fs.openSync(
      file,
      fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW,
      PRIVATE_FILE_MODE,
    );
    try {
      fs.writeSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
    if (how === "replace") fs.renameSync(file, target);
  }

  /** Removes expired records (best effort; they could never be used again). */
  private sweep(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    const now = this.now();
    for (const name of names) {
      if (!name.endsWith(SUFFIX)) continue;
      const record = readRecord(path.join(this.dir, name));
      if (record && Date.parse(record.expiresAt) + APPROVAL_VALIDITY_MS <= now) {
        fs.rmSync(path.join(this.dir, name), { force: true });
      }
    }
  }
}

/** The digest of a request or a stored record. */
function digestOf(request: Omit<ApprovalRequest, "reason" | "rule">): string {
  return callDigest(
    request.program,
    request.args,
    request.cwd,
    request.cwdIdentity,
    request.manifestPath,
  );
}

/** Reads one approval file, refusing symlinks and anything that is not a record. */
function readRecord(file: string): ApprovalRecord | undefined {
  // Never a symlink, never a wait on a planted FIFO, only a regular file of a record's size.
  const bytes = readRegularFileSync(file, MAX_RECORD_BYTES);
  if (!bytes) return undefined;
  const text = bytes.toString("utf8");
  try {
    const value = JSON.parse(text) as ApprovalRecord;
    const valid =
      typeof value === "object" &&
      value !== null &&
      typeof value.program === "string" &&
      Array.isArray(value.args) &&
      value.args.every((arg) => typeof arg === "string") &&
      typeof value.cwd === "string" &&
      typeof value.cwdIdentity?.dev === "string" &&
      typeof value.cwdIdentity?.ino === "string" &&
      typeof value.digest === "string" &&
      typeof value.expiresAt === "string";
    return valid ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The approvals directory under the per-user state directory (§19's). */
export function approvalsDirUnder(stateDir: string): string {
  return path.join(stateDir, APPROVALS_DIR_NAME);
}
