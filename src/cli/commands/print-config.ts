// `print-config <host>`: registers the command; the work is in print-config-run.ts (SPEC §13).

import type { Command } from "commander";
import { addManifestOptions, addRuntimeOptions, type CommonOptions } from "../options.js";
import type { ExitWith } from "./exit-with.js";

/** Adds `print-config <host>` with the common flags it carries into the snippet. */
export function registerPrintConfig(program: Command, exitWith: ExitWith): void {
  const command = program
    .command("print-config")
    .summary("print a host configuration snippet")
    .description(
      "print a configuration snippet for a host (codex, dsh, claude-desktop, claude-code, " +
        "cursor, vscode, gemini, opencode); never edits a host file",
    )
    .argument("<host>", "the host to configure");
  addRuntimeOptions(addManifestOptions(command)).action(
    async (host: string, options: CommonOptions, self: Command) => {
      const { runPrintConfig } = await import("./print-config-run.js");
      exitWith(runPrintConfig(host, options, self));
    },
  );
}
