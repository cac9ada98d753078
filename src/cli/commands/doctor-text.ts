// The readable, multi-line form of the doctor report (SPEC §13); `--json` prints the same facts.

import { checkLine, ruleLines } from "./doctor-rules.js";
import type { ProgramPolicy } from "../../programs/types.js";
import type {
  DoctorReport,
  ProbeFacts,
  ProgramFacts,
  ProjectNodeFacts,
  TimeoutSource,
} from "./doctor-report.js";

/** Where a default timeout came from, as the text report says it. */
const TIMEOUT_SOURCE_TEXT: Record<TimeoutSource, string> = {
  "policy.defaultTimeoutMs": "from policy.defaultTimeoutMs",
  "--default-timeout-ms": "from --default-timeout-ms",
  default: "the built-in default; no --default-timeout-ms given",
  "policy.maxTimeoutMs": "capped at policy.maxTimeoutMs",
};

const INDENT = "  ";

/** One program: status line, then winner, shadows and timeout. */
function programLines(program: ProgramFacts): string[] {
  const role = program.required ? "required" : "optional";
  const lines = [`${INDENT}${program.name} (${role}): ${program.status}`];
  const more = INDENT.repeat(2);
  if (program.winner !== undefined) {
    const { candidate, foundPath, realPath } = program.winner;
    const real = realPath === foundPath ? "" : ` → ${realPath}`;
    lines.push(`${more}candidate ${JSON.stringify(candidate)} found at ${foundPath}${real}`);
    if (program.kind === "cmd-script")
      lines.push(`${more}kind: cmd-script (arguments re-parsed by cmd.exe)`);
  } else {
    const tried = program.candidates.map((candidate) => JSON.stringify(candidate)).join(", ");
    lines.push(`${more}candidates: ${tried}`);
  }
  for (const shadowed of program.shadowed) lines.push(`${more}shadowed: ${shadowed}`);
  if (program.timeout !== undefined) {
    const { defaultMs, maxMs, source } = program.timeout;
    lines.push(
      `${more}timeout: default ${defaultMs} ms (${TIMEOUT_SOURCE_TEXT[source]}), max ${maxMs} ms`,
    );
  }
  if (program.policy !== undefined) lines.push(`${more}policy: ${policyText(program.policy)}`);
  for (const rule of ruleLines(program.rules ?? [])) lines.push(`${more}${rule}`);
  const dropped = program.removedByPattern ?? [];
  if (dropped.length > 0) {
    lines.push(`${more}environment dropped by inherit/removeMatching: ${dropped.join(", ")}`);
  }
  if (program.sandbox === null) lines.push(`${more}sandbox: none (unconfined)`);
  if (program.sandbox) {
    const { filesystem, network, writablePaths } = program.sandbox;
    const writable = writablePaths.length > 0 ? `, writable ${writablePaths.join(", ")}` : "";
    lines.push(`${more}sandbox: filesystem ${filesystem}, network ${network}${writable}`);
  }
  return lines;
}

/** Every effective policy field as `name value` pairs on one line (new fields show up too). */
function policyText(policy: ProgramPolicy): string {
  return Object.entries(policy)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name} ${typeof value === "object" ? JSON.stringify(value) : value}`)
    .join(", ");
}

/** The Project Node section. */
function projectNodeLines(node: ProjectNodeFacts): string[] {
  const lines = [`Project Node (${node.kind}):`];
  if (node.defaultVersion !== undefined)
    lines.push(`${INDENT}default version: ${node.defaultVersion}`);
  for (const root of node.enabledRoots) lines.push(`${INDENT}enabled root: ${root}`);
  lines.push(`${INDENT}installations (${node.installations.length}):`);
  for (const installation of node.installations) {
    const npm = installation.npmCli === undefined ? ", no paired npm" : "";
    lines.push(`${INDENT.repeat(2)}${installation.version}: ${installation.node}${npm}`);
  }
  return lines;
}

/** One probe result. */
function probeLine(probe: ProbeFacts): string {
  const command = [probe.program, ...probe.args].join(" ");
  if (probe.outcome === "skipped")
    return `${INDENT}${command}: skipped, ${probe.reason ?? "not selected"}`;
  if (probe.outcome === "passed") {
    const said = probe.firstLine === undefined ? "" : ` — ${probe.firstLine}`;
    return `${INDENT}${command}: passed (exit ${probe.exitCode}, ${probe.durationMs} ms)${said}`;
  }
  const said = probe.firstLine === undefined ? "" : ` — ${probe.firstLine}`;
  return `${INDENT}${command}: FAILED ${probe.code}: ${probe.reason}${said}`;
}

/** The limits line: every effective runtime setting. */
function limitsLines(report: DoctorReport): string[] {
  const limits = report.limits;
  return [
    "Limits:",
    `${INDENT}default timeout ${limits.defaultTimeoutMs} ms, ${limits.maxConcurrentExecutions} concurrent executions`,
    `${INDENT}inline output ${limits.maxOutputBytes} bytes per stream (head ${limits.inlineHeadBytes})`,
    `${INDENT}artifacts: ${report.artifactDirectory}, retention ` +
      `${limits.artifactRetentionMs} ms, quota ${limits.artifactQuotaBytes} bytes, ` +
      `largest stream ${limits.artifactMaxStreamBytes} bytes`,
    `${INDENT}yield after ${limits.yieldMs} ms, ${limits.maxBackgroundExecutions} background executions`,
  ];
}

/** The adapter line (§20). */
function sandboxLine(report: DoctorReport): string {
  const sandbox = report.sandbox;
  if (sandbox === null) return "Sandbox: none (no program is confined)";
  return `Sandbox: ${sandbox.adapter} ${sandbox.version} at ${sandbox.path} (probe ${sandbox.probe})`;
}

/** The whole report as text, ending with the verdict. */
export function formatDoctorText(report: DoctorReport): string {
  const registered = report.programs.filter((program) => program.status === "registered").length;
  const lines = [
    `system-command-mcp ${report.serverVersion} doctor`,
    `Manifest: ${report.manifest.path} (version ${report.manifest.version})`,
    "Roots:",
    ...report.roots.map((root) => `${INDENT}${root}`),
    ...limitsLines(report),
    report.globalPath.length === 0 ? "PATH: (empty)" : "PATH:",
    ...report.globalPath.map((directory) => `${INDENT}${directory}`),
    `Programs (${registered} of ${report.programs.length} registered):`,
    ...report.programs.flatMap(programLines),
  ];
  if (report.projectNode !== undefined) lines.push(...projectNodeLines(report.projectNode));
  lines.push(sandboxLine(report));
  if (report.audit !== undefined) {
    lines.push(
      report.audit === null
        ? "Audit log: off"
        : `Audit log: ${report.audit.path} (args: ${report.audit.args})`,
    );
  }
  if (report.check !== undefined) lines.push(checkLine(report.check));
  if (report.probes !== undefined) {
    lines.push(`Probes (${report.probes.length}):`, ...report.probes.map(probeLine));
  }
  if (report.warnings.length > 0) {
    lines.push(`Warnings (${report.warnings.length}):`);
    lines.push(...report.warnings.map((warning) => `${INDENT}- ${warning}`));
  }
  const warned = report.warnings.length > 0 ? ` with ${report.warnings.length} warning(s)` : "";
  lines.push(
    report.ok ? `Result: runnable${warned}` : "Result: NOT usable (see the errors on stderr)",
  );
  return lines.join("\n") + "\n";
}
