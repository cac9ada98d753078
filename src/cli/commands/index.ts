// Registers the management commands (init, doctor, print-config, migrate-manifest) on the CLI.
// Each lives in its own module, imports its work only when it runs, and loads no MCP SDK code
// (SPEC §13).

import type { Command } from "commander";
import type { ExitWith } from "./exit-with.js";
import { registerApprovals } from "./approve.js";
import { registerAudit } from "./audit.js";
import { registerDoctor } from "./doctor.js";
import { registerInit } from "./init.js";
import { registerMigrateManifest } from "./migrate-manifest.js";
import { registerPrintConfig } from "./print-config.js";

export type { ExitWith } from "./exit-with.js";

/** Adds every management command to the program. */
export function registerManagementCommands(program: Command, exitWith: ExitWith): void {
  registerInit(program, exitWith);
  registerDoctor(program, exitWith);
  registerPrintConfig(program, exitWith);
  registerMigrateManifest(program, exitWith);
  registerApprovals(program, exitWith);
  registerAudit(program, exitWith);
}
