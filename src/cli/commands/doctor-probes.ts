// `doctor --execute`: runs the manifest's probes through the real Command Runtime (SPEC §9.7, §13).
// Never reached without --execute; the runtime is imported only here, and only when a probe runs.

import type { Launcher } from "../../confinement/index.js";
import { CommandError, isCommandError, type ErrorCode } from "../../errors.js";
import type { NodeSelector } from "../../node/index.js";
import type { ProbeSpec, ProgramCatalog } from "../../programs/catalog.js";
import type { Root } from "../../roots/roots.js";
import type { RuntimeSettings } from "../../runtime/config.js";
import type { CommandRuntime } from "../../runtime/runtime.js";
import type { CanonicalResult } from "../../runtime/types.js";
import { SERVER_NAME, SERVER_VERSION } from "../../version.js";
import type { ProbeFacts } from "./doctor-report.js";

/** Request errors that mean the probe's cwd may not be used. */
const CWD_ERRORS = new Set<ErrorCode>(["CWD_NOT_ALLOWED", "CWD_NOT_FOUND", "ROOT_UNAVAILABLE"]);

/** Longest first line of output kept in the report. */
const FIRST_LINE_MAX_CHARS = 200;

/** What the probes run with. */
export interface ProbeInput {
  catalog: ProgramCatalog;
  roots: Root[];
  settings: RuntimeSettings;
  node?: NodeSelector;
  /** Also probe optional programs (--all). */
  all: boolean;
  /** The probed sandbox adapter: confined programs' probes run confined (§20). */
  confinement?: Launcher;
}

/** The facts of a probe before it ran. */
function probeBase(program: string, probe: ProbeSpec): ProbeFacts {
  const facts: ProbeFacts = {
    program,
    args: [...probe.args],
    acceptedExitCodes: [...probe.acceptedExitCodes],
    outcome: "skipped",
  };
  if (probe.cwd !== undefined) facts.cwd = probe.cwd;
  return facts;
}

/** Why a probe is not run, or undefined when it runs. */
function skipReason(input: ProbeInput, program: string): string | undefined {
  const detail = input.catalog.details.find((item) => item.name === program);
  if (detail !== undefined && !detail.enabled) return "the program is disabled";
  if (detail !== undefined && !detail.required && !input.all) {
    return "optional program, pass --all to probe it";
  }
  return undefined;
}

/** Marks a probe failed with a code and a reason. */
function failed(
  facts: ProbeFacts,
  code: NonNullable<ProbeFacts["code"]>,
  reason: string,
): ProbeFacts {
  return { ...facts, outcome: "failed", code, reason };
}

/** The first non-empty line of a stream excerpt, shortened. */
function firstLine(text: string): string | undefined {
  const line = text.split("\n").find((item) => item.trim() !== "");
  return line === undefined ? undefined : line.trim().slice(0, FIRST_LINE_MAX_CHARS);
}

/** Judges a finished probe by its exit code. */
function judged(facts: ProbeFacts, result: CanonicalResult): ProbeFacts {
  const ran: ProbeFacts = {
    ...facts,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
  };
  const accepted =
    !result.timedOut &&
    result.exitCode !== null &&
    facts.acceptedExitCodes.includes(result.exitCode);
  const line = firstLine(accepted ? result.stdout.text : result.stderr.text || result.stdout.text);
  if (line !== undefined) ran.firstLine = line;
  if (accepted) return { ...ran, outcome: "passed" };
  const got = result.timedOut
    ? `timed out after ${result.durationMs} ms`
    : result.exitCode === null
      ? `ended by signal ${result.signal ?? "unknown"}`
      : `exited with ${result.exitCode}`;
  return failed(
    ran,
    "PROBE_FAILED",
    `probe of "${facts.program}" ${got}; expected an exit code in [${facts.acceptedExitCodes.join(", ")}]`,
  );
}

/** Runs one probe, turning request errors into the probe codes of §5. */
async function runProbe(
  runtime: CommandRuntime,
  input: ProbeInput,
  facts: ProbeFacts,
): Promise<ProbeFacts> {
  const { program } = facts;
  if (!input.catalog.programs.has(program)) {
    return failed(
      facts,
      "PROBE_PROGRAM_UNAVAILABLE",
      `probe of "${program}" cannot run: the program is not registered (none of its candidates ` +
        `resolved); expected a registered program`,
    );
  }
  if (facts.cwd === undefined && input.roots.length !== 1) {
    return failed(
      facts,
      "PROBE_CWD_NOT_ALLOWED",
      `probe of "${program}" has no cwd, but there are ${input.roots.length} Roots; expected an ` +
        `absolute probes.${program}.cwd inside one of them`,
    );
  }
  try {
    const request = {
      program,
      args: facts.args,
      ...(facts.cwd !== undefined && { cwd: facts.cwd }),
    };
    // A probe waits for its result: no running handle after yieldMs.
    const result = await runtime.execute(request, { noYield: true });
    if (result.status !== "completed") {
      return failed(facts, "PROBE_FAILED", `probe of "${program}" did not complete`);
    }
    return judged(facts, result);
  } catch (error) {
    if (!isCommandError(error)) throw error;
    if (CWD_ERRORS.has(error.code)) {
      return failed(
        facts,
        "PROBE_CWD_NOT_ALLOWED",
        `probe of "${program}": cwd ${facts.cwd ?? "(the Root)"} cannot be used (${error.code}: ` +
          `${error.message}); expected an existing directory inside a Root`,
      );
    }
    return failed(
      facts,
      "PROBE_FAILED",
      `probe of "${program}" did not run (${error.code}: ${error.message})`,
    );
  }
}

/** Runs the selected probes one after another, in manifest order; never throws for a probe failure. */
export async function runProbes(input: ProbeInput): Promise<ProbeFacts[]> {
  const planned = Object.entries(input.catalog.probes).map(([program, probe]) => ({
    facts: probeBase(program, probe),
    skip: skipReason(input, program),
  }));
  if (planned.every((item) => item.skip !== undefined)) {
    return planned.map((item) => ({ ...item.facts, reason: item.skip! }));
  }
  const { CommandRuntime } = await import("../../runtime/runtime.js");
  const runtime = new CommandRuntime({
    catalog: input.catalog,
    roots: input.roots,
    settings: input.settings,
    serverName: SERVER_NAME,
    serverVersion: SERVER_VERSION,
    ...(input.node !== undefined && { node: input.node }),
    ...(input.confinement !== undefined && { confinement: input.confinement }),
  });
  const results: ProbeFacts[] = [];
  try {
    for (const item of planned) {
      if (item.skip !== undefined) results.push({ ...item.facts, reason: item.skip });
      else results.push(await runProbe(runtime, input, item.facts));
    }
  } finally {
    await runtime.close();
  }
  return results;
}

/** The errors of failed probes, for stderr. */
export function probeErrors(probes: readonly ProbeFacts[]): CommandError[] {
  return probes
    .filter((probe) => probe.outcome === "failed" && probe.code !== undefined)
    .map(
      (probe) =>
        new CommandError(probe.code!, probe.reason ?? `probe of "${probe.program}" failed`),
    );
}
