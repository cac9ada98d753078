// Startup's check of §21.1: whether the manifest's rules can hold. "strict" refuses to start
// (RULES_NOT_ENFORCEABLE) when a code-running program could get around them, or when the
// approvals directory would not be hidden from a confined program.

import fs from "node:fs";
import path from "node:path";
import {
  assertEnforceable,
  rulesPolicy,
  type RulesPolicyReport,
} from "../policy/enforceability.js";
import { PRIVATE_DIR_MODE } from "../policy/constants.js";
import type { ProgramCatalog } from "../programs/catalog.js";
import { hiddenServerDirectories, type ConfinementSetup } from "./confinement-setup.js";

/** Whether `inner` is `outer` or below it (both absolute). */
function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The §21.1 report; throws RULES_NOT_ENFORCEABLE under "strict" when the rules cannot hold. */
export function checkRulesPolicy(
  catalog: ProgramCatalog,
  approvalsDir: string,
  setup: ConfinementSetup,
): RulesPolicyReport {
  const report = rulesPolicy(catalog.programs.values(), catalog.rulesEnforcement ?? "advisory");
  if (report.rulesEnforcement !== "strict") return report;
  // A hidden path that does not exist yet is not mounted over, so under "strict" it is made now.
  try {
    fs.mkdirSync(approvalsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch {
    // An approvals directory that cannot be made is refused when a call needs it (gate).
  }
  const hidden = hiddenServerDirectories(setup);
  assertEnforceable(report, {
    dir: approvalsDir,
    hiddenFromConfined: hidden.some((dir) => isWithin(path.resolve(approvalsDir), dir)),
  });
  return report;
}
