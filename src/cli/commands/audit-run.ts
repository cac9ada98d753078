// `audit verify` and `audit tail` (SPEC §22): read an audit log, never write it.

import { readFile } from "node:fs/promises";
import { CommandError, errnoCode } from "../../errors.js";
import { readManifestFile } from "../../manifest/load.js";
import { validateManifest } from "../../manifest/validate.js";
import { formatAuditLine, lastLines } from "../../policy/audit-format.js";
import { verifyAuditLog } from "../../policy/audit-verify.js";
import { DEFAULT_TAIL_EVENTS } from "../../policy/constants.js";
import { auditPathOf } from "../../policy/audit-path.js";

export interface AuditCommandOptions {
  manifest?: string;
  n?: number;
  json?: boolean;
}

/** PATH, else the manifest's audit.path; INVALID_OPTION when there is neither. */
async function logPath(file: string | undefined, options: AuditCommandOptions): Promise<string> {
  if (file !== undefined) return file;
  if (options.manifest === undefined) {
    throw new CommandError(
      "INVALID_OPTION",
      "expected the audit log PATH, or --manifest <file> whose audit.path names it; got neither",
    );
  }
  const manifest = await readManifestFile(options.manifest);
  validateManifest(manifest);
  const found = manifest.audit === undefined ? undefined : auditPathOf(undefined, manifest.audit);
  if (found === undefined) {
    throw new CommandError(
      "INVALID_OPTION",
      `the manifest ${options.manifest} has no audit.path; pass the audit log PATH`,
    );
  }
  return found;
}

async function readLog(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new CommandError(
      "AUDIT_UNAVAILABLE",
      `the audit log ${file} cannot be read (${errnoCode(error)}); expected an existing file`,
    );
  }
}

/** `audit verify`: 0 when every chain checks out (open chains included), else 1. */
export async function runAuditVerify(
  file: string | undefined,
  options: AuditCommandOptions,
): Promise<number> {
  const target = await logPath(file, options);
  const report = verifyAuditLog(await readLog(target));
  const out: string[] = [];
  for (const chain of report.chains) {
    const state =
      chain.state === "open"
        ? "open (no chain-end: the server crashed or is still running)"
        : "closed";
    out.push(
      `chain ${chain.chain}: ${chain.records} records, lines ${chain.firstLine}–${chain.lastLine}, ${state}`,
    );
  }
  for (const problem of report.problems) out.push(`line ${problem.line}: ${problem.message}`);
  const first = report.problems[0];
  out.push(
    first
      ? `FAILED: ${report.problems.length} bad line(s), the first is line ${first.line}`
      : `ok: ${report.lines} lines in ${report.chains.length} chain(s)`,
  );
  process.stdout.write(out.join("\n") + "\n");
  if (!first) return 0;
  process.stderr.write(
    `system-command-mcp: AUDIT_CHAIN_BROKEN: ${target} line ${first.line}: ${first.message}\n`,
  );
  return 1;
}

/** `audit tail`: the last N events, readable or raw. */
export async function runAuditTail(
  file: string | undefined,
  options: AuditCommandOptions,
): Promise<number> {
  const target = await logPath(file, options);
  const text = (await readLog(target)).toString("utf8");
  const lines = lastLines(text, options.n ?? DEFAULT_TAIL_EVENTS);
  const out = lines.map(({ raw, line }) => (options.json ? raw : formatAuditLine(raw, line)));
  process.stdout.write(out.length ? out.join("\n") + "\n" : "");
  return 0;
}
