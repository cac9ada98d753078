// The common flags of every command and their ranges (SPEC §13).

import { InvalidArgumentError, Option, type Command } from "commander";
import {
  MAX_ARTIFACT_MAX_STREAM_BYTES,
  MAX_ARTIFACT_QUOTA_BYTES,
  MAX_ARTIFACT_RETENTION_MS,
  MAX_BACKGROUND_EXECUTIONS_LIMIT,
  MAX_CONCURRENT_EXECUTIONS_LIMIT,
  MAX_FOREGROUND_TIMEOUT_MS,
  MAX_INLINE_BUDGET_BYTES,
  MAX_OUTPUT_BYTES_ACCEPTED,
  MAX_YIELD_MS,
} from "../limits.js";
import type { RuntimeFlags } from "../runtime/config.js";

/** Options every server-starting command takes, as commander parses them. */
export interface CommonOptions extends RuntimeFlags {
  manifest?: string;
  root?: string[];
  /** §22: the audit log file (wins over the manifest's audit.path). */
  auditLog?: string;
}

/** A commander parser accepting whole numbers from min to max (else INVALID_OPTION). */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const trimmed = value.trim();
    const parsed = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(
        `expected a whole number from ${min} to ${max}, got "${value}"`,
      );
    }
    return parsed;
  };
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Adds --manifest and --root (repeatable, accumulating). */
export function addManifestOptions(command: Command): Command {
  return command
    .option("--manifest <path>", "Program Manifest (JSON); enables Configured Mode")
    .option("--root <dir>", "Working Directory Root (repeatable)", collect);
}

/** Adds the runtime flags; a repeated flag: last wins. */
export function addRuntimeOptions(command: Command): Command {
  const numeric: [string, string, number, number][] = [
    [
      "--max-output-bytes <n>",
      "inline bytes per stream (effective max 256 KiB)",
      1,
      MAX_OUTPUT_BYTES_ACCEPTED,
    ],
    [
      "--inline-budget-bytes <n>",
      "inline bytes both streams share (24576)",
      1,
      MAX_INLINE_BUDGET_BYTES,
    ],
    [
      "--inline-head-bytes <n>",
      "bytes of the head in a truncated excerpt",
      0,
      MAX_OUTPUT_BYTES_ACCEPTED,
    ],
    ["--default-timeout-ms <n>", "default timeout (600000)", 1, MAX_FOREGROUND_TIMEOUT_MS],
    [
      "--max-concurrent-executions <n>",
      "active executions at once (4)",
      1,
      MAX_CONCURRENT_EXECUTIONS_LIMIT,
    ],
    [
      "--artifact-retention-ms <n>",
      "artifact lifetime from publication (24 h)",
      1,
      MAX_ARTIFACT_RETENTION_MS,
    ],
    ["--artifact-quota-bytes <n>", "artifact store quota (1 GiB)", 1, MAX_ARTIFACT_QUOTA_BYTES],
    [
      "--artifact-max-stream-bytes <n>",
      "largest stream kept (100 MiB)",
      1,
      MAX_ARTIFACT_MAX_STREAM_BYTES,
    ],
    ["--yield-ms <n>", "return a running handle after this long (45000)", 1, MAX_YIELD_MS],
    [
      "--max-background-executions <n>",
      "background executions at once (4)",
      1,
      MAX_BACKGROUND_EXECUTIONS_LIMIT,
    ],
  ];
  command.option("--artifact-dir <dir>", "artifact store directory (default: per-user cache)");
  command.option("--audit-log <path>", "append the audit log (JSON Lines) to this file");
  for (const [flags, description, min, max] of numeric) {
    command.addOption(new Option(flags, description).argParser(integerIn(min, max)));
  }
  return command;
}

/** How `exec` prints its result (`--format`, checked by commander's choices). */
export const EXEC_FORMATS = ["json", "text"] as const;
export type ExecFormat = (typeof EXEC_FORMATS)[number];
