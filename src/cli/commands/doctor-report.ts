// The facts `doctor` reports (SPEC §13): one object, rendered as text or JSON.

import {
  advisoryWarning,
  rulesPolicy,
  type RulesPolicyReport,
} from "../../policy/enforceability.js";
import os from "node:os";
import path from "node:path";
import { defaultArtifactDir } from "../../artifacts/default-dir.js";
import type { SandboxAdapterInfo, SandboxPolicy } from "../../confinement/index.js";
import type { NodeSelector } from "../../node/index.js";
import type { Rule } from "../../policy/types.js";
import type { AuditFacts, CheckFacts } from "./doctor-rules.js";
import type { ProgramCatalog, ResolutionDetail } from "../../programs/catalog.js";
import type { ProgramKind, ProgramPolicy, RegisteredProgram } from "../../programs/types.js";
import type { Root } from "../../roots/roots.js";
import type { RuntimeSettings } from "../../runtime/config.js";
import { programDefaultTimeout } from "../../runtime/validate-request.js";
import { MAX_FOREGROUND_TIMEOUT_MS } from "../../limits.js";
import { SERVER_VERSION } from "../../version.js";

/**
 * Where a program's effective default timeout comes from: its policy, the flag, the built-in
 * default (no flag given), or its maxTimeoutMs when that capped the flag or built-in value.
 */
export type TimeoutSource =
  "policy.defaultTimeoutMs" | "--default-timeout-ms" | "default" | "policy.maxTimeoutMs";

/** One Logical Program of the manifest as startup resolved it. */
export interface ProgramFacts {
  name: string;
  required: boolean;
  enabled: boolean;
  status: "registered" | "unavailable" | "disabled";
  candidates: string[];
  /** The candidate that won: as declared, where it was found, its real path. */
  winner?: { candidate: string; foundPath: string; realPath: string };
  kind?: ProgramKind;
  /** Later PATH entries or candidates that would also have matched. */
  shadowed: string[];
  /** The effective default timeout (what a request without timeoutMs gets) within its maximum. */
  timeout?: {
    defaultMs: number;
    maxMs: number;
    source: TimeoutSource;
  };
  /** The effective policy, every field filled in (defaults included). */
  policy?: ProgramPolicy;
  /** Startup variables `inherit` or a `removeMatching` pattern keep from it (§23): names only. */
  removedByPattern?: string[];
  /** §20: the effective sandbox of a registered program, null when it runs unconfined. */
  sandbox?: SandboxPolicy | null;
  /** Argument rules (§21), in manifest order. */
  rules?: Rule[];
}

/** §20: the adapter startup found and the result of its one probe run. */
export interface SandboxFacts extends SandboxAdapterInfo {
  probe: "passed";
}

/** One Node installation found in the installation roots. */
export interface InstallationFacts {
  version: string;
  directory: string;
  node: string;
  npmCli?: string;
  npxCli?: string;
}

/** Project Node resolution as configured (§12). */
export interface ProjectNodeFacts {
  kind: "project-node" | "node-resolution";
  defaultVersion?: string;
  enabledRoots: string[];
  installations: InstallationFacts[];
}

/** What one probe did (doctor --execute). */
export interface ProbeFacts {
  program: string;
  args: string[];
  cwd?: string;
  acceptedExitCodes: number[];
  outcome: "passed" | "failed" | "skipped";
  /** Why a probe was skipped or failed, in words. */
  reason?: string;
  /** The CLI error code of a failed probe. */
  code?: "PROBE_FAILED" | "PROBE_PROGRAM_UNAVAILABLE" | "PROBE_CWD_NOT_ALLOWED";
  exitCode?: number | null;
  signal?: string | null;
  timedOut?: boolean;
  durationMs?: number;
  /** The first line of stdout (passed) or of stderr (failed), if any. */
  firstLine?: string;
}

/** Everything doctor found; `ok` is the exit status (true → exit 0). */
export interface DoctorReport {
  ok: boolean;
  serverVersion: string;
  manifest: { path: string; version: 1 | 2 };
  roots: string[];
  limits: RuntimeSettings;
  /** The artifact store directory the server would use: --artifact-dir, else the per-user cache. */
  artifactDirectory: string;
  globalPath: string[];
  programs: ProgramFacts[];
  projectNode?: ProjectNodeFacts;
  /** §20: null when no program is confined. */
  sandbox: SandboxFacts | null;
  probes?: ProbeFacts[];
  /** §22: where the audit log goes, or null when it is off. */
  audit?: AuditFacts | null;
  /** `--check <program> [args…]`: the decision for that call (§21). */
  check?: CheckFacts;
  /** §21.1: whether the rules can hold as a whole. */
  policy: RulesPolicyReport;
  warnings: string[];
}

/** What the report is built from: the results of a successful startup. */
export interface ReportInput {
  manifestPath: string;
  catalog: ProgramCatalog;
  roots: readonly Root[];
  settings: RuntimeSettings;
  node?: NodeSelector;
  /** The adapter startup probed (§20), when some program is confined. */
  sandbox?: SandboxAdapterInfo;
  /** Whether --default-timeout-ms was given (else settings carry the built-in default). */
  defaultTimeoutFlag?: boolean;
}

/** The default timeout of a program and where it comes from. */
function timeoutFacts(
  program: RegisteredProgram,
  settings: RuntimeSettings,
  flagGiven: boolean,
): ProgramFacts["timeout"] {
  const defaultMs = programDefaultTimeout(program, settings.defaultTimeoutMs);
  const source: TimeoutSource =
    program.policy.defaultTimeoutMs !== undefined
      ? "policy.defaultTimeoutMs"
      : defaultMs < settings.defaultTimeoutMs
        ? "policy.maxTimeoutMs"
        : flagGiven
          ? "--default-timeout-ms"
          : "default";
  return {
    defaultMs,
    maxMs: Math.min(program.policy.maxTimeoutMs, MAX_FOREGROUND_TIMEOUT_MS),
    source,
  };
}

/** The facts of one program. */
function programFacts(
  detail: ResolutionDetail,
  program: RegisteredProgram | undefined,
  settings: RuntimeSettings,
  flagGiven: boolean,
): ProgramFacts {
  const status = !detail.enabled
    ? "disabled"
    : program === undefined
      ? "unavailable"
      : "registered";
  const facts: ProgramFacts = {
    name: detail.name,
    required: detail.required,
    enabled: detail.enabled,
    status,
    candidates: [...detail.candidates],
    shadowed: [...detail.shadowed],
  };
  if (detail.winner !== undefined) facts.winner = { ...detail.winner };
  if (detail.enabled) facts.removedByPattern = [...(detail.removedByPattern ?? [])];
  if (program !== undefined) {
    facts.kind = program.kind;
    facts.timeout = timeoutFacts(program, settings, flagGiven);
    facts.policy = { ...program.policy };
    facts.sandbox = program.sandbox ?? null;
    if (program.rules?.length) facts.rules = structuredClone([...program.rules]);
  }
  return facts;
}

/** Warnings about programs: optional ones that did not resolve (they are simply not registered). */
function programWarnings(programs: readonly ProgramFacts[]): string[] {
  const warnings: string[] = [];
  for (const program of programs) {
    if (program.status !== "unavailable") continue;
    const tried = program.candidates.map((candidate) => JSON.stringify(candidate)).join(", ");
    warnings.push(
      `optional program "${program.name}" is unavailable (tried ${tried}): it will not be ` +
        `registered; install it or fix its candidates if agents need it`,
    );
  }
  return warnings;
}

/** The Project Node facts, when a selector was built. */
function projectNodeFacts(catalog: ProgramCatalog, node: NodeSelector): ProjectNodeFacts {
  const facts: ProjectNodeFacts = {
    kind: node.kind,
    enabledRoots: [...node.enabledRoots],
    installations: node.installations.map((installation) => {
      const item: InstallationFacts = {
        version: installation.version,
        directory: installation.directory,
        node: installation.node.path,
      };
      if (installation.npmCli !== undefined) item.npmCli = installation.npmCli.path;
      if (installation.npxCli !== undefined) item.npxCli = installation.npxCli.path;
      return item;
    }),
  };
  const defaultVersion = catalog.projectNode?.defaultVersion;
  if (typeof defaultVersion === "string") facts.defaultVersion = defaultVersion;
  return facts;
}

/** The store directory exactly as the server resolves it (SPEC §8). */
export function effectiveArtifactDirectory(settings: RuntimeSettings): string {
  if (settings.artifactDir !== undefined) return path.resolve(settings.artifactDir);
  return defaultArtifactDir(process.env, process.platform, os.homedir());
}

/** Builds the static report (no probes yet); `ok` is true: startup succeeded. */
export function buildDoctorReport(input: ReportInput): DoctorReport {
  const { catalog, settings } = input;
  const programs = catalog.details.map((detail) =>
    programFacts(
      detail,
      catalog.programs.get(detail.name),
      settings,
      input.defaultTimeoutFlag === true,
    ),
  );
  const report: DoctorReport = {
    ok: true,
    serverVersion: SERVER_VERSION,
    manifest: { path: input.manifestPath, version: catalog.manifestVersion ?? 2 },
    roots: input.roots.map((root) => root.path),
    limits: settings,
    artifactDirectory: effectiveArtifactDirectory(settings),
    globalPath: [...catalog.globalPath],
    programs,
    sandbox: input.sandbox ? { ...input.sandbox, probe: "passed" } : null,
    policy: rulesPolicy(catalog.programs.values(), catalog.rulesEnforcement ?? "advisory"),
    warnings: programWarnings(programs),
  };
  const advisory = advisoryWarning(report.policy);
  if (advisory) {
    const strict = report.policy.rulesEnforcement === "strict";
    report.warnings.push(
      strict ? `${advisory}; serve refuses to start (RULES_NOT_ENFORCEABLE)` : advisory,
    );
  }
  if (input.node !== undefined) {
    report.projectNode = projectNodeFacts(catalog, input.node);
    report.warnings.push(...input.node.warnings);
  }
  return report;
}
