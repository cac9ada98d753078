// The composition root: the one place that wires the stages into a Command Runtime — artifact
// store, Project Node selector and crash-safe group registry — for every adapter (`serve` and
// `exec` alike), so the two cannot drift.

import { openArtifactStoreInBackground } from "../artifacts/deferred.js";
import type { StartupEnvironment } from "../environment/variables.js";
import { createPolicyStage } from "../policy/setup.js";
import { defaultExecutionsDir, GroupRegistry } from "../process/crash-registry.js";
import type { ProgramCatalog } from "../programs/catalog.js";
import type { Root } from "../roots/roots.js";
import { SERVER_NAME, SERVER_VERSION } from "../version.js";
import type { RuntimeSettings } from "./config.js";
import type { NodeLauncher } from "./ports.js";
import { checkRulesPolicy } from "./rules-policy.js";
import { openConfinementFor } from "./confinement-setup.js";
import { CommandRuntime } from "./runtime.js";

/** What the adapters resolved from their flags; everything else is wired here. */
export interface CreateRuntimeOptions {
  catalog: ProgramCatalog;
  roots: Root[];
  settings: RuntimeSettings;
  /** The startup environment (default process.env): the store's default dir, Node discovery. */
  env?: StartupEnvironment;
  platform?: NodeJS.Platform;
  /** Where the crash-safe group registry lives (§19); default the per-user state directory. */
  executionsDir?: string;
  /** `--audit-log PATH` (§22; wins over the manifest's audit.path). */
  auditLog?: string;
  /** Where startup notes go (stderr in the CLI); never given arguments, input or values. */
  log?: (line: string) => void;
}

/** Builds the runtime with its store, Node selector and group registry (closed by close()). */
export async function createRuntime(options: CreateRuntimeOptions): Promise<CommandRuntime> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const log = options.log ?? (() => {});
  const { catalog, roots, settings } = options;
  // First, so that an audit log that cannot be opened stops startup before anything else opens.
  const policy = createPolicyStage({
    manifestPath: catalog.manifestPath,
    manifestAudit: catalog.audit,
    auditLogFlag: options.auditLog,
    chainStart: {
      serverVersion: SERVER_VERSION,
      mode: catalog.mode,
      roots: roots.map((r) => r.path),
    },
    env,
    onAuditFailure: (message) => log(`audit log failed, executions are refused: ${message}`),
    log,
  });
  const confinementSetup = {
    catalog,
    settings,
    roots,
    env,
    ...(policy.audit !== undefined && { auditPath: policy.audit.path }),
  };
  // §21.1: "strict" stops here when a code-running program could get around the rules.
  const rulesPolicy = checkRulesPolicy(catalog, policy.approvalsDir, confinementSetup);
  // §20: fails closed (SANDBOX_UNAVAILABLE) when a confined program's adapter is missing or broken.
  const confinement = await openConfinementFor(confinementSetup);
  const node = await nodeLauncher(catalog, roots, env);
  const artifacts = openArtifactStoreInBackground({
    dir: settings.artifactDir,
    createAtOpen: confinement !== undefined, // hidden from confined programs, so it must exist
    retentionMs: settings.artifactRetentionMs,
    quotaBytes: settings.artifactQuotaBytes,
    maxStreamBytes: settings.artifactMaxStreamBytes,
    env,
  });
  void artifacts.ready.then(
    (store) => {
      const detail = store.unavailableDetail();
      if (detail) log(`artifacts are unavailable (executions still run): ${detail}`);
    },
    () => log("artifacts are unavailable (executions still run): the store could not open"),
  );
  // Process groups are a POSIX notion; Windows has no registry (docs/architecture.md).
  const groups =
    platform === "win32"
      ? undefined
      : new GroupRegistry(options.executionsDir ?? defaultExecutionsDir(env, platform));
  return new CommandRuntime({
    catalog,
    roots,
    settings,
    serverName: SERVER_NAME,
    serverVersion: SERVER_VERSION,
    artifacts,
    node,
    platform: options.platform,
    groups,
    policy: policy.gate,
    rulesPolicy,
    audit: policy.audit,
    confinement,
  });
}

/** The Project Node selector when the manifest asks for one (loaded only then). */
async function nodeLauncher(
  catalog: ProgramCatalog,
  roots: Root[],
  env: StartupEnvironment,
): Promise<NodeLauncher | undefined> {
  const wanted = catalog.projectNode || catalog.nodeResolution;
  if (catalog.manifestVersion === undefined || !wanted) return undefined;
  const { createNodeSelector } = await import("../node/index.js");
  return createNodeSelector({
    manifestVersion: catalog.manifestVersion,
    projectNode: catalog.projectNode,
    nodeResolution: catalog.nodeResolution,
    roots: roots.map((root) => root.path),
    staticNode: catalog.programs.get("node"),
    staticPrograms: catalog.programs,
    env,
  });
}
