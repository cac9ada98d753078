// Appends one record to an audit log, sealed when the log has a seal state (SPEC §22.1): under the
// seal lock the state is read afresh (servers started before `audit seal` pick it up), a crash
// between a writer's two fsyncs is reconciled, the line gets its seal as last member, the line is
// appended and fdatasynced, then the state advances to { i + 1, evolve(k) } and is fdatasynced.

import fs from "node:fs";
import { errnoCode } from "../errors.js";
import { evolve, macEquals, sealedLine, sealMac, splitMac, splitSealed } from "./seal-keys.js";
import { releaseSources, SEAL_LOCK_SUFFIX, withSealLock } from "./seal-lock.js";
import { readSealStateFd, sealStatePath, writeSealStateFd, type SealState } from "./seal-state.js";

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** The first read of the log's end when looking for its last line; doubled until a line fits. */
const TAIL_READ_BYTES = 8192;
const NEWLINE = 0x0a;

/** What one append wrote: the line (without its newline) and its seal index when sealed. */
export interface Appended {
  line: string;
  sealIndex: number | null;
}

/** Writes records of one open log; `failure` texts are thrown as plain Errors. */
export class AuditSealer {
  private readonly statePath: string;
  private readonly lockPath: string;

  constructor(
    logPath: string,
    private readonly fd: number,
  ) {
    this.statePath = sealStatePath(logPath);
    this.lockPath = `${this.statePath}${SEAL_LOCK_SUFFIX}`;
  }

  /** Removes this process's lock source file (at a clean shutdown). */
  close(): void {
    releaseSources();
  }

  /** Whether a seal state exists now. */
  sealed(): boolean {
    return fs.existsSync(this.statePath);
  }

  /** Appends `body` (a record serialised without a seal), sealing it when the log is sealed. */
  append(body: string): Appended {
    let stateFd: number;
    try {
      stateFd = fs.openSync(this.statePath, fs.constants.O_RDWR | NOFOLLOW);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") {
        throw new Error(`the seal state ${this.statePath} cannot be opened (${errnoCode(error)})`);
      }
      this.writeLine(body, false);
      return { line: body, sealIndex: null };
    }
    try {
      return withSealLock(this.lockPath, () => this.sealAndAppend(body, stateFd));
    } finally {
      fs.closeSync(stateFd);
    }
  }

  private sealAndAppend(body: string, stateFd: number): Appended {
    let state = readSealStateFd(stateFd, this.statePath);
    if (this.lastLineSealedUnder(state)) {
      // A writer stopped between its two fsyncs: its record is in, the state did not advance.
      state = { index: state.index + 1, key: evolve(state.key) };
      writeSealStateFd(stateFd, state);
    }
    const line = sealedLine(body, state.index, sealMac(state.key, body));
    this.writeLine(line, true);
    writeSealStateFd(stateFd, { index: state.index + 1, key: evolve(state.key) });
    return { line, sealIndex: state.index };
  }

  /** One write(2) of the line and its newline; fdatasync when sealed. */
  private writeLine(line: string, sync: boolean): void {
    const bytes = Buffer.from(line + "\n", "utf8");
    const written = fs.writeSync(this.fd, bytes, 0, bytes.length);
    if (written !== bytes.length) {
      throw new Error(`a short write (${written} of ${bytes.length} bytes)`);
    }
    if (sync) fs.fdatasyncSync(this.fd);
  }

  /** Whether the log's last line carries the state's index and verifies under its key. */
  private lastLineSealedUnder(state: SealState): boolean {
    const line = this.lastLine();
    if (line === undefined) return false;
    let record: { seal?: unknown };
    try {
      record = JSON.parse(line.toString("utf8")) as typeof record;
    } catch {
      return false;
    }
    if (record?.seal === undefined) return false;
    const split = splitSealed(line, record.seal);
    if (typeof split === "string" || split.index !== state.index) return false;
    return macEquals(split.mac, splitMac(state.key, split));
  }

  /** The log's last complete line (without its newline), or undefined when there is none. */
  private lastLine(): Buffer | undefined {
    const size = fs.fstatSync(this.fd).size;
    for (let want = TAIL_READ_BYTES; ; want *= 2) {
      const length = Math.min(want, size);
      const buffer = Buffer.alloc(length);
      fs.readSync(this.fd, buffer, 0, length, size - length);
      if (length === 0 || buffer[length - 1] !== NEWLINE) return undefined;
      const start = buffer.lastIndexOf(NEWLINE, length - 2) + 1;
      if (start > 0 || length === size) return buffer.subarray(start, length - 1);
    }
  }
}
