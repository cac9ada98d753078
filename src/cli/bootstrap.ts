// Builds a Command Runtime from command-line options: Roots, programs, Project Node, artifacts.
// Shared by `serve` and `exec`; loads no MCP code.

import os from "node:os";
import { openArtifactStoreInBackground } from "../artifacts/deferred.js";
import { loadCatalog } from "../programs/load-catalog.js";
import type { ProgramCatalog } from "../programs/catalog.js";
import { normalizeRoots, type Root } from "../roots/roots.js";
import { resolveSettings, type RuntimeSettings } from "../runtime/config.js";
import { CommandRuntime, type RuntimeOptions } from "../runtime/runtime.js";
import { SERVER_NAME, SERVER_VERSION } from "../version.js";
import type { CommonOptions } from "./options.js";
import { requireRootsForManifest } from "./commands/requirements.js";
import { logLine } from "./log.js";

export interface Bootstrapped {
  runtime: CommandRuntime;
  catalog: ProgramCatalog;
  roots: Root[];
  settings: RuntimeSettings;
}

/** How a command bootstraps: its name (for usage messages) and the crash registry, if any. */
export interface BootstrapContext {
  command: "serve" | "exec";
  groups?: RuntimeOptions["groups"];
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
  const node =
    catalog.manifestVersion !== undefined && (catalog.projectNode || catalog.nodeResolution)
      ? await (
          await import("../node/index.js")
        ).createNodeSelector({
          manifestVersion: catalog.manifestVersion,
          projectNode: catalog.projectNode,
          nodeResolution: catalog.nodeResolution,
          roots: roots.map((root) => root.path),
          staticNode: catalog.programs.get("node"),
          staticPrograms: catalog.programs,
          env: process.env,
        })
      : undefined;
  const artifacts = openArtifactStoreInBackground({
    dir: settings.artifactDir,
    retentionMs: settings.artifactRetentionMs,
    quotaBytes: settings.artifactQuotaBytes,
    maxStreamBytes: settings.artifactMaxStreamBytes,
    env: process.env,
  });
  void artifacts.ready.then(
    (store) => {
      const detail = store.unavailableDetail();
      if (detail) logLine(`artifacts are unavailable (executions still run): ${detail}`);
    },
    () => logLine("artifacts are unavailable (executions still run): the store could not open"),
  );
  const runtime = new CommandRuntime({
    catalog,
    roots,
    settings,
    serverName: SERVER_NAME,
    serverVersion: SERVER_VERSION,
    artifacts,
    node,
    groups: context.groups,
  });
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
