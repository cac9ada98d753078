// `migrate-manifest INPUT [OUTPUT] --root R…`: registers the command; the work is in
// migrate-manifest-run.ts (SPEC §12, §13).

import type { Command } from "commander";
import { addManifestOptions, type CommonOptions } from "../options.js";
import type { ExitWith } from "./exit-with.js";

/** Adds `migrate-manifest [input] [output]` with --root (and --manifest as another way to name INPUT). */
export function registerMigrateManifest(program: Command, exitWith: ExitWith): void {
  const command = program
    .command("migrate-manifest")
    .summary("convert a v1 nodeResolution manifest to v2")
    .description(
      "convert a version 1 manifest with nodeResolution into version 2 with projectNode " +
        "(enabledRoots = the Roots); never overwrites",
    )
    .argument("[input]", "the version 1 manifest (or --manifest)")
    .argument("[output]", "where to write version 2 (default: <input>.v2.json)");
  addManifestOptions(command).action(
    async (input: string | undefined, output: string | undefined, options: CommonOptions) => {
      const { runMigrateManifest } = await import("./migrate-manifest-run.js");
      exitWith(await runMigrateManifest(input, output, options));
    },
  );
}
