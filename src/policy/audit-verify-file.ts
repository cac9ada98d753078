// Verifies an audit log file (SPEC §22, §22.1): the chain check always, the seal check when the
// verification key is given. One streamed pass; problems of both checks in line order.

import { forEachLine } from "./audit-read.js";
import { SealChecker, type SealSummary } from "./audit-seal-verify.js";
import { ChainChecker, type AuditProblem, type ChainSummary } from "./audit-verify.js";
import { readSealStateFile } from "./seal-state.js";

export interface FileVerifyReport {
  lines: number;
  chains: ChainSummary[];
  problems: AuditProblem[];
  /** Present when a key was given. */
  seal?: SealSummary;
}

/** Reads and checks `file`; `key` (32 bytes) adds the seal check against `stateFile`. */
export function verifyAuditFile(file: string, key?: Buffer, stateFile?: string): FileVerifyReport {
  const chains = new ChainChecker();
  const state = key && stateFile !== undefined ? readSealStateFile(stateFile) : undefined;
  const expected =
    state !== undefined && typeof state === "object" && "index" in state ? state.index + 1 : 0;
  const seals = key ? new SealChecker(key, expected) : undefined;
  let lines = 0;
  forEachLine(
    file,
    (bytes, line) => {
      lines = line;
      const record = chains.line(bytes, line);
      if (record && seals) seals.line(bytes, line, record);
    },
    (line) => {
      lines = line;
      chains.truncated(line);
    },
  );
  const report = chains.report();
  if (!seals || stateFile === undefined) return { ...report, lines };
  const sealed = seals.finish(state ?? "missing", stateFile, lines);
  const problems = [...report.problems, ...sealed.problems].sort((a, b) => a.line - b.line);
  return { lines, chains: report.chains, problems, seal: sealed.summary };
}
