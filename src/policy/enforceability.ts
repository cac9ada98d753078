// Whether the manifest's rules can hold (SPEC §21.1). A rule constrains one program's argv; a
// code-running program (an interpreter, a shell, a package manager) can start the ruled program
// itself, and unconfined it can also write the same user's approval files. So the rules are
// enforceable only when every code-running program is confined with network "deny" (that covers
// a ruled program that runs code too: npm scripts run code no argv rule sees).

import path from "node:path";
import { CommandError } from "../errors.js";
import { programNameOf } from "./grammar/index.js";
import type { Rule } from "./types.js";

export type RulesEnforcement = "advisory" | "strict";

/** `system_environment.policy` (§3.2). */
export interface RulesPolicyReport {
  rulesEnforcement: RulesEnforcement;
  rulesEnforceable: boolean;
  /** The code-running programs that make the rules advisory, sorted. */
  advisoryBecause: string[];
}

/** What this check needs to know of a registered program. */
export interface EnforceabilityProgram {
  name: string;
  declaredCandidate: string;
  spawnPath: string;
  executable: string;
  rules?: readonly Rule[];
  /** The manifest's `runsCode`, when it gives one (it overrides the built-in list). */
  runsCode?: boolean;
  sandbox?: { network: "allow" | "deny" };
}

/**
 * Programs that run code they are given (§21.1's list), by logical name or executable basename;
 * a version suffix (python3.12, node20) is the same program. The shells that are not in the SPEC
 * list (dash, ksh, fish, …) and env/xargs, whose whole job is to start a program, are added.
 */
const CODE_RUNNING = new Set([
  "node",
  "python",
  "ruby",
  "perl",
  "php",
  "sh",
  "bash",
  "zsh",
  "deno",
  "bun",
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "dash",
  "ksh",
  "mksh",
  "fish",
  "csh",
  "tcsh",
  "pwsh",
  "powershell",
  "cmd",
  "env",
  "xargs",
]);
const VERSION_SUFFIX = /[\d.]+$/;

/** Whether a name (logical or a file name) is one of the code-running programs. */
function isCodeRunningName(name: string): boolean {
  const base = programNameOf(name);
  return CODE_RUNNING.has(base) || CODE_RUNNING.has(base.replace(VERSION_SUFFIX, ""));
}

/** Whether a program can run code it is given: the manifest's `runsCode`, else the list. */
export function runsCode(program: EnforceabilityProgram): boolean {
  if (program.runsCode !== undefined) return program.runsCode;
  const names = [program.name, program.declaredCandidate, program.spawnPath, program.executable];
  return names.some((name) => isCodeRunningName(path.basename(name)));
}

/** The §21.1 verdict over the registered programs. */
export function rulesPolicy(
  programs: Iterable<EnforceabilityProgram>,
  enforcement: RulesEnforcement = "advisory",
): RulesPolicyReport {
  const all = [...programs];
  const hasRules = all.some((program) => (program.rules?.length ?? 0) > 0);
  const advisoryBecause = hasRules
    ? all
        .filter((program) => runsCode(program) && program.sandbox?.network !== "deny")
        .map((program) => program.name)
        .sort()
    : [];
  return {
    rulesEnforcement: enforcement,
    rulesEnforceable: advisoryBecause.length === 0,
    advisoryBecause,
  };
}

/** The one line doctor and serve print when the rules are advisory. */
export function advisoryWarning(report: RulesPolicyReport): string | undefined {
  if (report.rulesEnforceable) return undefined;
  return (
    `argument rules are advisory: ${report.advisoryBecause.join(", ")} can run code ` +
    "(another program, or the CLI's approve) without the rules seeing it; confine each with " +
    'sandbox network "deny", or mark it "runsCode": false if it cannot (SPEC §21.1)'
  );
}

/**
 * `rulesEnforcement: "strict"`: RULES_NOT_ENFORCEABLE unless the rules are enforceable and the
 * approvals directory lies inside a directory hidden from every confined program.
 */
export function assertEnforceable(
  report: RulesPolicyReport,
  approvals: { dir: string; hiddenFromConfined: boolean },
): void {
  if (report.rulesEnforcement !== "strict") return;
  if (!report.rulesEnforceable) {
    throw new CommandError(
      "RULES_NOT_ENFORCEABLE",
      `rulesEnforcement is "strict", but ${report.advisoryBecause.join(", ")} can run code ` +
        "unconfined or with network allowed; expected every code-running program confined with " +
        'sandbox network "deny" (or "runsCode": false where it cannot run code)',
    );
  }
  if (!approvals.hiddenFromConfined) {
    throw new CommandError(
      "RULES_NOT_ENFORCEABLE",
      `rulesEnforcement is "strict", but the approvals directory ${approvals.dir} is not ` +
        "hidden from confined programs; expected it under the server's state directory",
    );
  }
}
