// `exec`: one execution through the same runtime, printing what an agent would receive (§13).

import { readFile } from "node:fs/promises";
import { CommandError, errnoCode } from "../errors.js";
import { STREAMS } from "../output/types.js";
import type { CanonicalResult } from "../runtime/types.js";
import { bootstrap } from "./bootstrap.js";
import { logError } from "./log.js";
import type { CommonOptions, ExecFormat } from "./options.js";

export interface ExecOptions extends CommonOptions {
  cwd?: string;
  timeoutMs?: number;
  inputFile?: string;
  approvalId?: string;
  format?: ExecFormat;
}

/** Runs `program args…`; resolves to the exit code of the CLI (0 result printed, 1 tool error). */
export async function execCommand(
  program: string,
  args: string[],
  options: ExecOptions,
): Promise<number> {
  const { runtime } = await bootstrap(options, { command: "exec" });
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const input = options.inputFile ? await readInputFile(options.inputFile) : undefined;
    const result = await runtime.execute(
      {
        program,
        args,
        cwd: options.cwd,
        timeoutMs: options.timeoutMs,
        input,
        approvalId: options.approvalId,
      },
      { signal: abort.signal, noYield: true },
    );
    if (result.status !== "completed") throw new Error("exec never yields");
    process.stdout.write(
      options.format === "text" ? formatText(result) : JSON.stringify(result, null, 2) + "\n",
    );
    return 0;
  } catch (error) {
    if (error instanceof CommandError) {
      logError(error);
      return 1;
    }
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await runtime.close();
  }
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

/** A readable summary: the status line, then each non-empty stream. */
export function formatText(result: CanonicalResult): string {
  const status =
    result.exitCode !== null ? `exit ${result.exitCode}` : `signal ${result.signal ?? "unknown"}`;
  const flags = [
    result.timedOut ? "timed out" : "",
    result.cancelled ? "cancelled" : "",
    `${result.durationMs} ms`,
  ].filter(Boolean);
  const lines = [`${result.programSelection.logicalName}: ${status} (${flags.join(", ")})`];
  for (const stream of STREAMS) {
    const output = result[stream];
    if (output.totalBytes === 0) continue;
    lines.push(
      `--- ${stream} (${output.totalBytes} bytes${output.truncated ? ", truncated" : ""})`,
    );
    lines.push(output.text.endsWith("\n") ? output.text.slice(0, -1) : output.text);
  }
  if (result.artifact.id) lines.push(`artifact: ${result.artifact.id}`);
  return lines.join("\n") + "\n";
}
