// `audit verify` (SPEC §22): checks every chain of an audit log — each record's `prev` is the
// sha256 of the previous line of its chain, `seq` counts up from 0 without gaps, the last line is
// complete — and names the lines whose check fails. Lines are fed one at a time (the log is
// streamed, never read whole).

import { sha256Hex } from "./digest.js";

/** One failed check, at a 1-based line number. */
export interface AuditProblem {
  line: number;
  message: string;
}

/** What one chain looked like. */
export interface ChainSummary {
  chain: string;
  firstLine: number;
  lastLine: number;
  records: number;
  /** "open": no chain-end (the server crashed or still runs). */
  state: "closed" | "open";
}

export interface VerifyReport {
  lines: number;
  chains: ChainSummary[];
  problems: AuditProblem[];
}

const EVENTS = new Set(["chain-start", "exec-start", "exec", "denied", "approval", "chain-end"]);
const CHAIN_ID = /^[0-9a-f]{32}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

interface ChainState extends ChainSummary {
  lastSeq: number;
  lastHash: string;
}

interface Header {
  event: string;
  chain: string;
  seq: number;
  prev: string | null;
  /** The parsed record, for the seal check. */
  record: Record<string, unknown>;
}

/** The chain fields of a record, or a reason why the line is not a record. */
function headerOf(bytes: Buffer): Header | string {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return "not a JSON record (the line was changed or damaged)";
  }
  const record = value as Record<string, unknown> | null;
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return "not a JSON object";
  }
  const { event, chain, seq, prev, ts } = record;
  if (typeof event !== "string" || !EVENTS.has(event))
    return `unknown event ${JSON.stringify(event)}`;
  if (typeof chain !== "string" || !CHAIN_ID.test(chain)) return "chain is not a 32-hex id";
  if (typeof seq !== "number" || !Number.isInteger(seq) || seq < 0)
    return "seq is not an integer ≥ 0";
  if (prev !== null && (typeof prev !== "string" || !SHA256_HEX.test(prev))) {
    return "prev is neither null nor a sha256 hex digest";
  }
  if (typeof ts !== "string" || Number.isNaN(Date.parse(ts))) return "ts is not an ISO 8601 time";
  return { event, chain, seq, prev, record };
}

/** Checks one record against the state of its chain; returns a problem or undefined. */
function linkProblem(header: Header, state: ChainState | undefined): string | undefined {
  if (header.event === "chain-start") {
    if (state)
      return `a second chain-start for chain ${header.chain} (line ${state.firstLine} started it)`;
    if (header.seq !== 0 || header.prev !== null)
      return "chain-start must have seq 0 and prev null";
    return undefined;
  }
  if (!state) {
    return `a record of chain ${header.chain} without its chain-start (earlier lines were removed)`;
  }
  if (state.state === "closed")
    return `a record after the chain-end of chain ${header.chain} (line ${state.lastLine})`;
  if (header.seq !== state.lastSeq + 1) {
    const missing = header.seq > state.lastSeq + 1 ? "record(s) were removed" : "out of order";
    return `seq ${header.seq} follows seq ${state.lastSeq} (line ${state.lastLine}) in chain ${header.chain}: ${missing}`;
  }
  if (header.prev !== state.lastHash) {
    return `prev is not the sha256 of line ${state.lastLine}, the previous record of chain ${header.chain}: that line was changed`;
  }
  return undefined;
}

/** Checks the chains of a log fed line by line. */
export class ChainChecker {
  private readonly chains = new Map<string, ChainState>();
  readonly problems: AuditProblem[] = [];
  private lines = 0;

  /** Checks one complete line (without its newline); returns its record when it parses. */
  line(bytes: Buffer, line: number): Record<string, unknown> | undefined {
    this.lines = line;
    const header = headerOf(bytes);
    if (typeof header === "string") {
      this.problems.push({ line, message: header });
      return undefined;
    }
    const state = this.chains.get(header.chain);
    const problem = linkProblem(header, state);
    if (problem) this.problems.push({ line, message: problem });
    // Continue from this record either way, so one bad line is reported once, not as a cascade.
    const hash = sha256Hex(bytes);
    const next: ChainState = state ?? {
      chain: header.chain,
      firstLine: line,
      lastLine: line,
      records: 0,
      state: "open",
      lastSeq: header.seq,
      lastHash: hash,
    };
    next.records += 1;
    next.lastLine = line;
    next.lastSeq = header.seq;
    next.lastHash = hash;
    if (header.event === "chain-end") next.state = "closed";
    this.chains.set(header.chain, next);
    return header.record;
  }

  /** A last line without its newline. */
  truncated(line: number): void {
    this.lines = line;
    this.problems.push({ line, message: "truncated: the last line has no newline (cut short)" });
  }

  report(): VerifyReport {
    const chains = [...this.chains.values()].map(
      ({ chain, firstLine, lastLine, records, state }) => ({
        chain,
        firstLine,
        lastLine,
        records,
        state,
      }),
    );
    return { lines: this.lines, chains, problems: this.problems };
  }
}
