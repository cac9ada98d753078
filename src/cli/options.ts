// The common flags of every command and their ranges (SPEC §13).

import { InvalidArgumentError, Option, type Command } from "commander";
import {
  DEFAULT_ARTIFACT_MAX_STREAM_BYTES,
  DEFAULT_ARTIFACT_QUOTA_BYTES,
  DEFAULT_ARTIFACT_RETENTION_MS,
  DEFAULT_MAX_BACKGROUND_EXECUTIONS,
  DEFAULT_MAX_CONCURRENT_EXECUTIONS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_YIELD_MS,
  MAX_OUTPUT_BYTES_EFFECTIVE,
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
import { RESULT_DETAILS, type ResultDetail } from "../mcp/compact.js";
import type { RuntimeFlags } from "../runtime/config.js";

/** Options every server-starting command takes, as commander parses them. */
export interface CommonOptions extends RuntimeFlags {
  manifest?: string;
  root?: string[];
  /** §22: the audit log file (wins over the manifest's audit.path). */
  auditLog?: string;
  /** `serve`: the default detail of results (wins over the manifest's resultDetail). */
  resultDetail?: ResultDetail;
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

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const HOUR_MS = 3_600_000;

/** A byte count as --help shows it: the largest binary unit that divides it. */
function bytesText(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", GiB],
    ["MiB", MiB],
    ["KiB", KiB],
  ] as const) {
    if (bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes}`;
}

/** A duration as --help shows it: hours when whole, else milliseconds. */
function durationText(ms: number): string {
  return ms % HOUR_MS === 0 ? `${ms / HOUR_MS} h` : `${ms}`;
}

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
      `inline bytes per stream (effective max ${bytesText(MAX_OUTPUT_BYTES_EFFECTIVE)})`,
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
    [
      "--default-timeout-ms <n>",
      `default timeout (${DEFAULT_TIMEOUT_MS})`,
      1,
      MAX_FOREGROUND_TIMEOUT_MS,
    ],
    [
      "--max-concurrent-executions <n>",
      `active executions at once (${DEFAULT_MAX_CONCURRENT_EXECUTIONS})`,
      1,
      MAX_CONCURRENT_EXECUTIONS_LIMIT,
    ],
    [
      "--artifact-retention-ms <n>",
      `artifact lifetime from publication (${durationText(DEFAULT_ARTIFACT_RETENTION_MS)})`,
      1,
      MAX_ARTIFACT_RETENTION_MS,
    ],
    [
      "--artifact-quota-bytes <n>",
      `artifact store quota (${bytesText(DEFAULT_ARTIFACT_QUOTA_BYTES)})`,
      1,
      MAX_ARTIFACT_QUOTA_BYTES,
    ],
    [
      "--artifact-max-stream-bytes <n>",
      `largest stream kept (${bytesText(DEFAULT_ARTIFACT_MAX_STREAM_BYTES)})`,
      1,
      MAX_ARTIFACT_MAX_STREAM_BYTES,
    ],
    [
      "--yield-ms <n>",
      `return a running handle after this long (${DEFAULT_YIELD_MS})`,
      1,
      MAX_YIELD_MS,
    ],
    [
      "--max-background-executions <n>",
      `background executions at once (${DEFAULT_MAX_BACKGROUND_EXECUTIONS})`,
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

/** Adds --result-detail (serve): how much of each result the model receives by default. */
export function addResultDetailOption(command: Command): Command {
  return command.addOption(
    new Option(
      "--result-detail <detail>",
      "results when a call does not say: compact (only what differs from the obvious) or full",
    ).choices(RESULT_DETAILS),
  );
}

/** How `exec` prints its result (`--format`, checked by commander's choices). */
export const EXEC_FORMATS = ["json", "text"] as const;
export type ExecFormat = (typeof EXEC_FORMATS)[number];
