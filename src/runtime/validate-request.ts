// The runtime's own checks of a request: limits the schema does not carry (SPEC §3.1, §19).

import { CommandError } from "../errors.js";
import {
  MAX_ARG_BYTES,
  MAX_ARGS,
  MAX_ARGS_TOTAL_BYTES,
  MAX_FOREGROUND_TIMEOUT_MS,
  MAX_GRACE_PERIOD_REQUEST_MS,
  MAX_INPUT_BYTES,
  MAX_WAIT_MS,
  MAX_YIELD_MS,
} from "../limits.js";
import type { RegisteredProgram } from "../programs/types.js";

const CMD_SCRIPT_UNSAFE = /[%!&|<>^\r\n\0]/;

/** Checks args: a string array within count and size limits, no NUL. */
export function checkArgs(args: unknown): string[] {
  if (args === undefined) return [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
    throw new CommandError("INVALID_ARGUMENT", "args must be an array of strings");
  }
  if (args.length > MAX_ARGS) {
    throw new CommandError(
      "INVALID_ARGUMENT",
      `args may hold at most ${MAX_ARGS} items, got ${args.length}`,
    );
  }
  let total = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.includes("\0")) {
      throw new CommandError("INVALID_ARGUMENT", `args[${i}] contains a NUL character`);
    }
    const bytes = Buffer.byteLength(arg, "utf8");
    if (bytes > MAX_ARG_BYTES) {
      throw new CommandError(
        "INVALID_ARGUMENT",
        `args[${i}] must be at most ${MAX_ARG_BYTES} bytes of UTF-8, got ${bytes}`,
      );
    }
    total += bytes;
  }
  if (total > MAX_ARGS_TOTAL_BYTES) {
    throw new CommandError(
      "INVALID_ARGUMENT",
      `args may total at most ${MAX_ARGS_TOTAL_BYTES} bytes of UTF-8, got ${total}`,
    );
  }
  return args as string[];
}

/** Windows .cmd/.bat programs re-parse their arguments: refuse the characters that would matter. */
export function checkCmdScriptArgs(program: RegisteredProgram, args: string[]): void {
  if (program.kind !== "cmd-script") return;
  const index = args.findIndex((arg) => CMD_SCRIPT_UNSAFE.test(arg));
  if (index >= 0) {
    throw new CommandError(
      "UNSAFE_CMD_SCRIPT_ARGUMENT",
      `${program.name} is a .cmd/.bat script and args[${index}] contains one of % ! & | < > ^, ` +
        `CR, LF or NUL, which cmd.exe would reinterpret; pass it another way`,
    );
  }
}

/** The foreground timeout to use: the request's, checked, or the program's default. */
export function foregroundTimeout(
  program: RegisteredProgram,
  requested: number | undefined,
  defaultTimeoutMs: number,
): number {
  const max = Math.min(program.policy.maxTimeoutMs, MAX_FOREGROUND_TIMEOUT_MS);
  if (requested === undefined) return programDefaultTimeout(program, defaultTimeoutMs);
  if (!Number.isInteger(requested) || requested < 1 || requested > max) {
    throw new CommandError(
      "INVALID_TIMEOUT",
      `timeoutMs must be an integer from 1 to ${max} for ${program.name}, got ${requested}`,
    );
  }
  return requested;
}

/** A program's default timeout: its policy's, else min(--default-timeout-ms, its maximum). */
export function programDefaultTimeout(
  program: RegisteredProgram,
  defaultTimeoutMs: number,
): number {
  const max = Math.min(program.policy.maxTimeoutMs, MAX_FOREGROUND_TIMEOUT_MS);
  return program.policy.defaultTimeoutMs ?? Math.min(defaultTimeoutMs, max);
}

/** Checks input against the program's policy and the size limit; returns its bytes. */
export function checkInput(program: RegisteredProgram, input: unknown): Buffer | undefined {
  if (input === undefined) return undefined;
  if (typeof input !== "string") {
    throw new CommandError("INVALID_INPUT", "input must be a string");
  }
  if (!program.policy.allowStdin) {
    throw new CommandError(
      "INVALID_INPUT",
      `${program.name} does not accept input (its policy.allowStdin is false); omit input`,
    );
  }
  const bytes = Buffer.from(input, "utf8");
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new CommandError(
      "INVALID_INPUT",
      `input must be at most ${MAX_INPUT_BYTES} bytes of UTF-8, got ${bytes.length}`,
    );
  }
  return bytes;
}

/** The background timeout: the request's, checked, or the program's maxBackgroundTimeoutMs. */
export function backgroundTimeout(
  program: RegisteredProgram,
  requested: number | undefined,
): number {
  const max = program.policy.maxBackgroundTimeoutMs;
  if (requested === undefined) return max;
  if (!Number.isInteger(requested) || requested < 1 || requested > max) {
    throw new CommandError(
      "INVALID_TIMEOUT",
      `timeoutMs of a background execution must be an integer from 1 to ${max} for ` +
        `${program.name}, got ${requested}`,
    );
  }
  return requested;
}

/** Checks a requested yieldMs (1 … MAX_YIELD_MS); undefined when none was given. */
export function checkYield(yieldMs: number | undefined): number | undefined {
  if (yieldMs === undefined) return undefined;
  if (!Number.isInteger(yieldMs) || yieldMs < 1 || yieldMs > MAX_YIELD_MS) {
    throw new CommandError(
      "INVALID_YIELD",
      `yieldMs must be an integer from 1 to ${MAX_YIELD_MS}, got ${yieldMs}`,
    );
  }
  return yieldMs;
}

/** Checks a requested waitMs (0 … MAX_WAIT_MS); undefined when none was given. */
export function checkWait(waitMs: number | undefined): number | undefined {
  if (waitMs === undefined) return undefined;
  if (!Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS) {
    throw new CommandError(
      "INVALID_WAIT",
      `waitMs must be an integer from 0 to ${MAX_WAIT_MS}, got ${waitMs}`,
    );
  }
  return waitMs;
}

/** Checks a system_cancel gracePeriodMs (0 … MAX_GRACE_PERIOD_REQUEST_MS). */
export function checkGracePeriod(gracePeriodMs: number | undefined): number | undefined {
  if (gracePeriodMs === undefined) return undefined;
  if (
    !Number.isInteger(gracePeriodMs) ||
    gracePeriodMs < 0 ||
    gracePeriodMs > MAX_GRACE_PERIOD_REQUEST_MS
  ) {
    throw new CommandError(
      "INVALID_REQUEST",
      `gracePeriodMs must be an integer from 0 to ${MAX_GRACE_PERIOD_REQUEST_MS}, ` +
        `got ${gracePeriodMs}`,
    );
  }
  return gracePeriodMs;
}
