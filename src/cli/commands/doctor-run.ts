// `doctor`: validates the manifest, Roots, limits and candidates exactly as `serve` would start,
// and with --execute runs the probes (SPEC §9.7, §13). Report on stdout, errors on stderr.

import { CommandError } from "../../errors.js";
import type { NodeSelector } from "../../node/index.js";
import { auditFacts, checkCall } from "./doctor-rules.js";
import { sandboxPolicies, type ProgramCatalog } from "../../programs/catalog.js";
import { loadCatalog } from "../../programs/load-catalog.js";
import { normalizeRoots, type Root } from "../../roots/roots.js";
import { resolveSettings } from "../../runtime/config.js";
import type { Launcher } from "../../confinement/index.js";
import { logError, logLine } from "../log.js";
import type { CommonOptions } from "../options.js";
import { buildDoctorReport } from "./doctor-report.js";
import { formatDoctorText } from "./doctor-text.js";
import { requireManifest, requireRootsForManifest } from "./requirements.js";

/** doctor's flags as commander parses them. */
export interface DoctorOptions extends CommonOptions {
  json?: boolean;
  execute?: boolean;
  probe?: boolean;
  all?: boolean;
  /** `--check <program> [args…]`: print the rule decision for that hypothetical call. */
  check?: boolean;
}

/** Builds the Node selector exactly as startup does, when the manifest configures Project Node. */
async function nodeSelectorFor(
  catalog: ProgramCatalog,
  roots: readonly Root[],
): Promise<NodeSelector | undefined> {
  if (catalog.manifestVersion === undefined) return undefined;
  if (catalog.projectNode === undefined && catalog.nodeResolution === undefined) return undefined;
  const { createNodeSelector } = await import("../../node/index.js");
  return createNodeSelector({
    manifestVersion: catalog.manifestVersion,
    ...(catalog.projectNode !== undefined && { projectNode: catalog.projectNode }),
    ...(catalog.nodeResolution !== undefined && { nodeResolution: catalog.nodeResolution }),
    roots: roots.map((root) => root.path),
    staticPrograms: catalog.programs,
    env: process.env,
  });
}

/**
 * The confinement startup would open, loaded only when a program is confined: a static doctor
 * of unconfined programs does not load the sandbox adapters at all (SPEC §16 doctor start).
 */
async function confinementFor(
  catalog: ProgramCatalog,
  settings: ReturnType<typeof resolveSettings>,
  roots: Root[],
): Promise<Launcher | undefined> {
  if (sandboxPolicies(catalog).length === 0) return undefined;
  const { openConfinementFor } = await import("../../runtime/confinement-setup.js");
  return openConfinementFor({ catalog, settings, roots });
}

/** Runs doctor; resolves to the exit code (0 runnable, 1 a probe failed). Startup errors throw. */
export async function runDoctor(options: DoctorOptions, args: string[] = []): Promise<number> {
  if (options.check === true ? args.length === 0 : args.length > 0) {
    throw new CommandError(
      "INVALID_OPTION",
      options.check === true
        ? "doctor --check expects <program> [args…] after it, got nothing"
        : `doctor takes <program> [args…] only with --check, got ${JSON.stringify(args)}`,
    );
  }
  if (options.probe) logLine("deprecated: doctor --probe is an alias of --execute; use --execute");
  const manifest = requireManifest(options.manifest, "doctor", "pass --manifest <file>");
  requireRootsForManifest(options, "doctor");
  const settings = resolveSettings(options);
  const roots = normalizeRoots(options.root ?? []);
  const catalog = await loadCatalog({ manifestPath: manifest, startupEnv: process.env });
  const node = await nodeSelectorFor(catalog, roots);
  const confinement = await confinementFor(catalog, settings, roots);
  const report = buildDoctorReport({
    manifestPath: catalog.manifestPath ?? manifest,
    catalog,
    roots,
    settings,
    defaultTimeoutFlag: options.defaultTimeoutMs !== undefined,
    ...(node !== undefined && { node }),
    ...(confinement !== undefined && { sandbox: confinement.adapter }),
  });
  report.audit = auditFacts(catalog, options.auditLog);
  if (options.check === true) report.check = checkCall(catalog, args[0]!, args.slice(1));
  let errors: { code: string; message: string }[] = [];
  if (options.execute || options.probe) {
    const { runProbes, probeErrors } = await import("./doctor-probes.js");
    report.probes = await runProbes({
      catalog,
      roots,
      settings,
      all: options.all === true,
      ...(node !== undefined && { node }),
      ...(confinement !== undefined && { confinement }),
    });
    errors = probeErrors(report.probes);
  }
  report.ok = errors.length === 0;
  process.stdout.write(
    options.json ? JSON.stringify(report, null, 2) + "\n" : formatDoctorText(report),
  );
  for (const error of errors) {
    logError(error);
  }
  return report.ok ? 0 : 1;
}
