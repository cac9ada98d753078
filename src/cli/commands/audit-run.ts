// `audit verify`, `audit tail` and `audit seal` (SPEC §22, §22.1): verify and tail read an audit
// log, never write it; seal writes only the seal state beside it.

import { readFile } from "node:fs/promises";
import path from "node:path";
import { CommandError, errnoCode } from "../../errors.js";
import { readManifestFile } from "../../manifest/load.js";
import { validateManifest } from "../../manifest/validate.js";
import { formatAuditLine, lastLines } from "../../policy/audit-format.js";
import { verifyAuditFile } from "../../policy/audit-verify-file.js";
import { KEY_HEX } from "../../policy/seal-keys.js";
import { createSeal, sealStatePath } from "../../policy/seal-state.js";
import { DEFAULT_TAIL_EVENTS } from "../../policy/constants.js";
import { auditPathOf } from "../../policy/audit-path.js";

export interface AuditCommandOptions {
  manifest?: string;
  n?: number;
  json?: boolean;
  /** verify: the verification key (hex) printed by `audit seal`. */
  key?: string;
  /** verify: the seal state to check against (default PATH.seal). */
  state?: string;
  /** seal: replace an existing seal. */
  force?: boolean;
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

/** The --key value as 32 bytes; INVALID_OPTION when it is not 64 hex characters. */
function keyOf(text: string | undefined): Buffer | undefined {
  if (text === undefined) return undefined;
  const hex = text.trim().toLowerCase();
  if (!KEY_HEX.test(hex)) {
    throw new CommandError(
      "INVALID_OPTION",
      `--key expects the 64 hex characters "audit seal" printed, got ${hex.length} characters`,
    );
  }
  return Buffer.from(hex, "hex");
}

/** Without --key: the chains only; same-user edits are out of the check's reach. */
const NO_KEY_NOTE =
  "note: without --key only the hash chains are checked; a program running as the log's user " +
  "can rewrite the whole file with new hashes, which this check cannot detect (seal the log with " +
  '"audit seal" and verify with --key)';

/** `audit verify`: 0 when every chain (and with --key every seal) checks out, else 1. */
export async function runAuditVerify(
  file: string | undefined,
  options: AuditCommandOptions,
): Promise<number> {
  const target = await logPath(file, options);
  const key = keyOf(options.key);
  const stateFile = options.state ?? sealStatePath(path.resolve(target));
  let report;
  try {
    report = verifyAuditFile(target, key, key ? stateFile : undefined);
  } catch (error) {
    throw new CommandError(
      "AUDIT_UNAVAILABLE",
      `the audit log ${target} cannot be read (${errnoCode(error)}); expected an existing file`,
    );
  }
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
  if (report.seal) {
    const seal = report.seal;
    out.push(
      `seal: ${seal.sealed} sealed record(s)${seal.firstLine === null ? "" : ` from line ${seal.firstLine}`}, ` +
        `state index ${seal.stateIndex ?? "-"} (${stateFile})` +
        (seal.before
          ? `; ${seal.before} record(s) before the seal began are not covered by it`
          : ""),
    );
    for (const note of seal.notes) out.push(`note: ${note}`);
  } else {
    out.push(NO_KEY_NOTE);
  }
  for (const problem of report.problems) out.push(`line ${problem.line}: ${problem.message}`);
  const first = report.problems[0];
  out.push(
    first
      ? `FAILED: ${report.problems.length} problem(s), the first at line ${first.line}`
      : `ok: ${report.lines} lines in ${report.chains.length} chain(s)${report.seal ? ", every seal verifies" : ""}`,
  );
  process.stdout.write(out.join("\n") + "\n");
  if (!first) return 0;
  const code = report.seal ? "AUDIT_SEAL_BROKEN" : "AUDIT_CHAIN_BROKEN";
  process.stderr.write(
    `system-command-mcp: ${code}: ${target} line ${first.line}: ${first.message}\n`,
  );
  return 1;
}

/** `audit seal`: creates the seal state and prints the verification key once. */
export async function runAuditSeal(
  file: string | undefined,
  options: AuditCommandOptions,
): Promise<number> {
  const target = path.resolve(await logPath(file, options));
  const key = createSeal(target, options.force ?? false);
  process.stdout.write(
    `verification key (shown once, never stored): ${key.toString("hex")}\n` +
      `The log ${target} is sealed (state ${sealStatePath(target)}). Keep this key OFF this ` +
      "machine (a password manager, paper, another host): anyone who has it can forge the log.\n" +
      `Verify with: system-command-mcp audit verify ${target} --key <key>\n`,
  );
  return 0;
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
