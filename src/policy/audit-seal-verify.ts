// `audit verify --key K` (SPEC §22.1): recomputes the evolving keys from K and checks every sealed
// record in file order — indexes 0, 1, 2, … without a gap or a step back, each MAC under the key of
// its index — then the seal state: its key must be the one derived for its index, and the log must
// reach that index (a log that ends earlier was cut). A record with index 0 that verifies under k1
// after earlier sealed lines starts the current seal (`audit seal --force`): the lines before it
// belong to an earlier seal, which this key cannot check.

import type { AuditProblem } from "./audit-verify.js";
import { evolve, macEquals, splitMac, splitSealed } from "./seal-keys.js";
import { KeyChain } from "./seal-key-chain.js";
import type { SealState } from "./seal-state.js";

/** What the seal check found, besides problems. */
export interface SealSummary {
  /** Sealed records of the current seal. */
  sealed: number;
  /** Records before the current seal began (not covered by it). */
  before: number;
  /** The line the current seal begins at, if any. */
  firstLine: number | null;
  stateIndex: number | null;
  /** Plain notes for the reader (earlier seals, a state one behind after a crash). */
  notes: string[];
}

export class SealChecker {
  private readonly k1: Buffer;
  private expected = 0;
  private readonly keys: KeyChain;
  private lastLine = 0;
  private sealed = 0;
  private before = 0;
  private firstLine: number | null = null;
  private readonly notes: string[] = [];
  /** Problems of the current seal segment (dropped when a later index 0 starts a new seal). */
  private segment: AuditProblem[] = [];

  /** `expectedRecords`: how many sealed records the state says there are (sizes the key chain). */
  constructor(verificationKey: Buffer, expectedRecords: number) {
    this.k1 = evolve(verificationKey);
    this.keys = new KeyChain(this.k1, expectedRecords);
  }

  /** Checks one parsed record's line. */
  line(bytes: Buffer, line: number, record: Record<string, unknown>): void {
    if (record.seal === undefined) {
      if (this.firstLine === null && this.segment.length === 0) this.before += 1;
      else
        this.problem(
          line,
          "no seal on a record after sealing began (the seal was removed, or a server that does not seal wrote it)",
        );
      return;
    }
    const split = splitSealed(bytes, record.seal);
    if (typeof split === "string") {
      this.problem(line, split);
      return;
    }
    if (
      split.index === 0 &&
      this.expected !== 0 &&
      macEquals(split.mac, splitMac(this.k1, split))
    ) {
      // `audit seal --force` began a new seal here.
      const from = this.firstLine ?? line;
      this.notes.push(
        `lines ${from}–${line - 1} were sealed under an earlier seal (replaced with --force): this key cannot check them`,
      );
      this.segment = [];
      this.expected = 0;
      this.sealed = 0;
      this.firstLine = null;
    }
    if (split.index !== this.expected) {
      const why =
        split.index > this.expected
          ? `seal index ${split.index} where ${this.expected} was expected: the records with index ${this.expected}–${split.index - 1} were removed`
          : `seal index ${split.index} where ${this.expected} was expected: records were reordered or copied`;
      this.problem(line, why);
      if (split.index < this.expected) return;
    }
    if (!macEquals(split.mac, splitMac(this.keys.keyFor(split.index), split))) {
      this.problem(
        line,
        `the seal (index ${split.index}) does not verify under the key derived from K: the line was changed or forged`,
      );
    }
    this.firstLine ??= line;
    this.lastLine = line;
    this.sealed += 1;
    this.expected = split.index + 1;
  }

  /** Checks the seal state against where the log ends; `endLine` is the log's last line number. */
  finish(
    state: SealState | "missing" | { problem: string },
    stateFile: string,
    endLine: number,
  ): { problems: AuditProblem[]; summary: SealSummary } {
    const at = Math.max(endLine, 1);
    let stateIndex: number | null = null;
    if (state === "missing") {
      this.problem(
        at,
        `the seal state ${stateFile} is missing: a sealed log keeps it beside the log (removed, or the log was copied without it; pass --state FILE)`,
      );
    } else if ("problem" in state) {
      this.problem(at, `the seal state ${stateFile} is unusable: ${state.problem}`);
    } else {
      stateIndex = state.index;
      this.checkState(state, at);
    }
    const summary = {
      sealed: this.sealed,
      before: this.before,
      firstLine: this.firstLine,
      stateIndex,
      notes: this.notes,
    };
    this.keys.close();
    return { problems: this.segment, summary };
  }

  private checkState(state: SealState, at: number): void {
    if (!macEquals(this.keyOfState(state.index), state.key.toString("hex"))) {
      this.problem(
        at,
        `the seal state's key is not the one derived from K for its index ${state.index}: the state was forged, or belongs to another seal`,
      );
      return;
    }
    if (this.expected < state.index) {
      const last =
        this.expected === 0
          ? "no sealed record"
          : `index ${this.expected - 1} (line ${this.lastLine})`;
      this.problem(
        at,
        `the log ends at ${last} but the seal state has reached index ${state.index}: the records with index ${this.expected}–${state.index - 1} were cut off`,
      );
    } else if (this.expected === state.index + 1) {
      this.notes.push(
        `the seal state is one record behind the log (a writer stopped between its two fsyncs); the next writer advances it`,
      );
    } else if (this.expected > state.index + 1) {
      this.problem(
        at,
        `the log has sealed records up to index ${this.expected - 1} but the seal state is at index ${state.index}: the state was rolled back (restored from an earlier copy)`,
      );
    }
  }

  /** The key derived for the state's index (hex), computed before the worker is stopped. */
  private stateKey: { index: number; hex: string } | undefined;

  private keyOfState(index: number): string {
    if (this.stateKey?.index !== index) {
      this.stateKey = { index, hex: this.keys.keyFor(index).toString("hex") };
    }
    return this.stateKey.hex;
  }

  private problem(line: number, message: string): void {
    this.segment.push({ line, message });
  }
}
