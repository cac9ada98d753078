// Builds the system_environment report: names, limits and policies, never a value (SPEC §3.2).

import {
  DEFAULT_OUTPUT_PAGE_BYTES,
  HANDLE_RETENTION_COUNT,
  HANDLE_RETENTION_MS,
  MAX_ARG_BYTES,
  MAX_ARGS,
  MAX_ARGS_TOTAL_BYTES,
  MAX_FOREGROUND_TIMEOUT_MS,
  MAX_INPUT_BYTES,
  MAX_WAIT_MS,
  OUTPUT_PAGE_MAX_BASE64_BYTES,
  OUTPUT_PAGE_MAX_UTF8_BYTES,
} from "../limits.js";
import { rulesPolicy } from "../policy/enforceability.js";
import type { EnvironmentReport, ProgramReport } from "./types.js";
import type { RuntimeOptions } from "./options.js";
import { programDefaultTimeout } from "./validate-request.js";

/** The §3.2 report for the runtime's configuration. */
export function buildEnvironmentReport(options: RuntimeOptions): EnvironmentReport {
  const { catalog, settings } = options;
  const programs: Record<string, ProgramReport> = {};
  for (const name of [...catalog.programs.keys()].sort()) {
    const program = catalog.programs.get(name)!;
    const report: ProgramReport = {
      executable: program.executable,
      declaredCandidate: program.declaredCandidate,
      kind: program.kind,
      argumentSemantics: program.kind === "cmd-script" ? "cmd-reparsed" : "literal",
      required: program.required,
      policy: {
        ...program.policy,
        // The same computation the runtime uses when a call gives no timeoutMs.
        defaultTimeoutMs: programDefaultTimeout(program, settings.defaultTimeoutMs),
      },
      sandbox: program.sandbox ?? null,
    };
    if (program.pathDiffers) report.path = program.pathDirs;
    if (name === "node" && options.node) report.variantSet = options.node.variantSet();
    if (program.rules?.length) report.rules = structuredClone([...program.rules]);
    programs[name] = report;
  }
  return {
    server: { name: options.serverName, version: options.serverVersion },
    platform: options.platform ?? process.platform,
    arch: process.arch,
    mode: catalog.mode,
    cwd: options.roots[0]?.path ?? process.cwd(),
    roots: options.roots.map((root) => root.path),
    programs,
    path: catalog.globalPath,
    environmentNames: catalog.environmentNames,
    removedByPattern: catalog.removedByPattern,
    limits: {
      maxConcurrentExecutions: settings.maxConcurrentExecutions,
      defaultTimeoutMs: settings.defaultTimeoutMs,
      maxTimeoutMs: MAX_FOREGROUND_TIMEOUT_MS,
      maxOutputBytes: settings.maxOutputBytes,
      inlineBudgetBytes: settings.inlineBudgetBytes,
      inlineHeadBytes: settings.inlineHeadBytes,
      maxArgs: MAX_ARGS,
      maxArgBytes: MAX_ARG_BYTES,
      maxArgsTotalBytes: MAX_ARGS_TOTAL_BYTES,
      maxInputBytes: MAX_INPUT_BYTES,
      artifactRetentionMs: settings.artifactRetentionMs,
      artifactQuotaBytes: settings.artifactQuotaBytes,
      artifactMaxStreamBytes: settings.artifactMaxStreamBytes,
      outputPageMaxBytes: OUTPUT_PAGE_MAX_BASE64_BYTES,
      outputPageMaxUtf8Bytes: OUTPUT_PAGE_MAX_UTF8_BYTES,
      outputPageDefaultBytes: DEFAULT_OUTPUT_PAGE_BYTES,
      defaultYieldMs: settings.yieldMs,
      maxBackgroundExecutions: settings.maxBackgroundExecutions,
      maxWaitMs: MAX_WAIT_MS,
      handleRetentionMs: HANDLE_RETENTION_MS,
      handleRetentionCount: HANDLE_RETENTION_COUNT,
    },
    policy:
      options.rulesPolicy ??
      rulesPolicy(catalog.programs.values(), catalog.rulesEnforcement ?? "advisory"),
    audit: options.audit
      ? {
          path: options.audit.path,
          args: options.audit.argsMode,
          sealed: options.audit.sealed,
          syslog: options.audit.copy?.target ?? null,
        }
      : null,
    sandbox: options.confinement?.adapter ?? null,
  };
}
