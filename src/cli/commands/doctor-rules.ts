// doctor's view of argument rules and the audit log (SPEC §21, §22): each registered program's
// rules in words, and `doctor --check <program> [args…]` — the decision for a hypothetical call.

import { CommandError } from "../../errors.js";
import { grammarOfProgram } from "../../policy/grammar/index.js";
import { describeRule, decideCall } from "../../policy/rules.js";
import { auditPathOf } from "../../policy/audit-path.js";
import type { Rule } from "../../policy/types.js";
import type { ProgramCatalog } from "../../programs/catalog.js";

/** The decision for one hypothetical call, with the deciding rule. */
export interface CheckFacts {
  program: string;
  args: string[];
  decision: "allow" | "ask" | "deny";
  rule?: { index: number; reason: string; text: string; because?: string };
}

/** Where the server would write its audit log, and how it records arguments. */
export interface AuditFacts {
  path: string;
  args: "digest" | "full";
}

/** The rules of a program as lines of text. */
export function ruleLines(rules: readonly Rule[]): string[] {
  return rules.map((rule, index) => describeRule(rule, index));
}

/** `doctor --check`: PROGRAM_NOT_REGISTERED for a name the server would not register. */
export function checkCall(catalog: ProgramCatalog, program: string, args: string[]): CheckFacts {
  const registered = catalog.programs.get(program);
  if (!registered) {
    const names = [...catalog.programs.keys()].sort().join(", ");
    throw new CommandError(
      "PROGRAM_NOT_REGISTERED",
      `--check ${JSON.stringify(program)}: expected one of the registered programs (${names || "none"})`,
    );
  }
  const verdict = decideCall(registered.rules ?? [], args, grammarOfProgram(registered));
  const facts: CheckFacts = { program, args, decision: verdict.decision };
  if (verdict.decision !== "allow") {
    facts.rule = {
      index: verdict.index,
      reason: verdict.rule.reason,
      text: describeRule(verdict.rule, verdict.index),
      ...(verdict.because !== undefined && { because: verdict.because }),
    };
  }
  return facts;
}

/** The check as one line. */
export function checkLine(check: CheckFacts): string {
  const call = `${check.program} ${JSON.stringify(check.args)}`;
  return check.rule
    ? `Check: ${call} → ${check.decision} (${check.rule.text})` +
        (check.rule.because ? `, the strictest rule, because ${check.rule.because}` : "")
    : `Check: ${call} → allow (no rule matches)`;
}

/** The audit settings in effect for these flags and manifest, or null when the log is off. */
export function auditFacts(catalog: ProgramCatalog, flag: string | undefined): AuditFacts | null {
  const file = auditPathOf(flag, catalog.audit);
  return file === undefined ? null : { path: file, args: catalog.audit?.args ?? "digest" };
}
