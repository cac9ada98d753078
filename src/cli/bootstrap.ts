// Builds a Command Runtime from command-line options: Roots, programs, Project Node, artifacts.
// Shared by `serve` and `exec`; loads no MCP code.

import os from "node:os";
import { advisoryWarning } from "../policy/enforceability.js";
import { loadCatalog } from "../programs/load-catalog.js";
import type { ProgramCatalog } from "../programs/catalog.js";
import { normalizeRoots, type Root } from "../roots/roots.js";
import { resolveSettings, type RuntimeSettings } from "../runtime/config.js";
import { createRuntime } from "../runtime/create-runtime.js";
import type { CommandRuntime } from "../runtime/runtime.js";
import type { CommonOptions } from "./options.js";
import { requireRootsForManifest } from "./commands/requirements.js";
import { logLine } from "./log.js";

export interface Bootstrapped {
  runtime: CommandRuntime;
  catalog: ProgramCatalog;
  roots: Root[];
  settings: RuntimeSettings;
}

/** How a command bootstraps: its name (for usage messages). */
export interface BootstrapContext {
  command: "serve" | "exec";
}

/** Everything startup does before serving; startup errors are CommandErrors (exit 1). */
export async function bootstrap(
  options: CommonOptions,
  context: BootstrapContext,
): Promise<Bootstrapped> {
  requireRootsForManifest(options, context.command);
  const settings = resolveSettings(options);
  const givenRoots = options.root ?? [];
  const roots = normalizeRoots(givenRoots.length > 0 ? givenRoots : [process.cwd()]);
  if (!options.manifest && givenRoots.length === 0) warnOnBroadCwd(roots[0]!.path);
  const catalog = await loadCatalog({ manifestPath: options.manifest, startupEnv: process.env });
  // The composition root wires store, Project Node and crash registry the same for every command.
  const runtime = await createRuntime({
    catalog,
    roots,
    settings,
    log: logLine,
    ...(options.auditLog !== undefined && { auditLog: options.auditLog }),
  });
  if (context.command === "serve") {
    const warning = advisoryWarning(runtime.inspect().policy);
    if (warning) logLine(`warning: ${warning}`);
  }
  return { runtime, catalog, roots, settings };
}

function warnOnBroadCwd(cwd: string): void {
  if (cwd === "/" || cwd === os.homedir()) {
    logLine(
      `warning: no --root given and the working directory is ${cwd}; ` +
        `executions may start anywhere below it (pass --root <project dir>)`,
    );
  }
}
