// `init [PATH]`: registers the command; the work is in init-run.ts (SPEC §13).

import type { Command } from "commander";
import { addManifestOptions } from "../options.js";
import type { ExitWith } from "./exit-with.js";
import type { InitOptions } from "./init-run.js";

/** Adds `init [path]` with --yes, --force, --manifest and --root. */
export function registerInit(program: Command, exitWith: ExitWith): void {
  const command = program
    .command("init")
    .summary("write a manifest for the programs on PATH")
    .description(
      "write a version 2 manifest for the programs found on PATH, then print Codex and DSH snippets",
    )
    .argument(
      "[path]",
      "where to write it (default: --manifest, else ./system-command-manifest.json)",
    )
    .option("--yes", "register every program found, all optional, without asking")
    .option("--force", "overwrite an existing manifest");
  addManifestOptions(command).action(async (target: string | undefined, options: InitOptions) => {
    const { runInit } = await import("./init-run.js");
    exitWith(await runInit(target, options));
  });
}
