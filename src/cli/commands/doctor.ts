// `doctor`: registers the command; the work is in doctor-run.ts (SPEC §13).

import { Option, type Command } from "commander";
import { addManifestOptions, addRuntimeOptions } from "../options.js";
import type { DoctorOptions } from "./doctor-run.js";
import type { ExitWith } from "./exit-with.js";

/** Adds `doctor` with --json, --execute (and its deprecated alias --probe) and --all. */
export function registerDoctor(program: Command, exitWith: ExitWith): void {
  const command = program
    .command("doctor")
    .summary("check a manifest (and run its probes with --execute)")
    .description(
      "check a manifest, its Roots, limits and candidates without running anything; " +
        "--execute also runs the declared probes",
    )
    .option("--json", "print the report as JSON")
    .option("--execute", "run the declared probes of required programs")
    .addOption(new Option("--probe", "deprecated alias of --execute").hideHelp())
    .option("--all", "with --execute: also probe optional programs")
    .option("--check", "print allow, ask or deny (and the rule) for the call <program> [args…]")
    .argument("[call...]", "with --check: <program> [args…] of a hypothetical call")
    .passThroughOptions();
  addRuntimeOptions(addManifestOptions(command)).action(
    async (args: string[], options: DoctorOptions) => {
      const { runDoctor } = await import("./doctor-run.js");
      exitWith(await runDoctor(options, args));
    },
  );
}
