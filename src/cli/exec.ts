// `exec`: one execution through the same runtime, printing what an agent would receive (§13).
// Its exit status is the program's (exec-status.ts); it runs where the shell is (exec-cwd.ts).

import { readFile } from "node:fs/promises";
import { CommandError, errnoCode } from "../errors.js";
import type { Caller } from "../policy/gate.js";
import { bootstrap, type Bootstrapped } from "./bootstrap.js";
import { execCwd } from "./exec-cwd.js";
import { EXIT_TOOL_ERROR, resultExitStatus } from "./exec-status.js";
import { writeText } from "./exec-text.js";
import { logError } from "./log.js";
import type { CommonOptions, ExecFormat } from "./options.js";
import { isUsageError } from "./usage-codes.js";

export interface ExecOptions extends CommonOptions {
  cwd?: string;
  timeoutMs?: number;
  inputFile?: string;
  approvalId?: string;
  format?: ExecFormat;
}

/**
 * The signals that interrupt `exec` (§13: SIGINT, SIGTERM; SIGHUP too, a closed terminal): the
 * tree is terminated, then exec exits 128 + number. Repeats are ignored while that happens
 * (bounded by the program's grace period and final wait).
 */
const INTERRUPTS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How the CLI names the approval id when APPROVAL_REQUIRED tells the user to run again. */
const CLI_CALLER: Caller = { approvalParameter: "--approval-id" };

/**
 * Runs `program args…`; resolves to exec's exit status: the program's (exit code, 128 + signal,
 * 124 timed out, 128 + the signal exec received when interrupted), 125 on a tool error.
 * Usage errors (ROOT_REQUIRED) are rethrown for main to print with the usage (exit 2).
 */
export async function execCommand(
  program: string,
  args: string[],
  options: ExecOptions,
): Promise<number> {
  let booted: Bootstrapped;
  try {
    booted = await bootstrap(options, { command: "exec" });
  } catch (error) {
    return toolError(error);
  }
  const { runtime, roots } = booted;
  const abort = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    abort.abort();
  };
  for (const signal of INTERRUPTS) process.on(signal, onSignal);
  try {
    const input = options.inputFile ? await readInputFile(options.inputFile) : undefined;
    const result = await runtime.execute(
      {
        program,
        args,
        cwd: execCwd(options.cwd, roots),
        timeoutMs: options.timeoutMs,
        input,
        approvalId: options.approvalId,
      },
      { signal: abort.signal, noYield: true, caller: CLI_CALLER },
    );
    if (result.status !== "completed") throw new Error("exec never yields");
    if (options.format === "text") await writeText(result);
    else process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return resultExitStatus(result, interrupted);
  } catch (error) {
    return toolError(error);
  } finally {
    await runtime.close();
    for (const signal of INTERRUPTS) process.off(signal, onSignal);
  }
}

/** A CommandError is printed and is exit 125; usage errors and bugs go on to main. */
function toolError(error: unknown): number {
  if (!(error instanceof CommandError) || isUsageError(error.code)) throw error;
  logError(error);
  return EXIT_TOOL_ERROR;
}

async function readInputFile(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new CommandError(
      "INVALID_INPUT",
      `--input-file ${file} could not be read (${errnoCode(error)})`,
    );
  }
}
