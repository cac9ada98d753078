// `approve <id>` / `deny <id>` (SPEC §21): registers the commands; the work is in approve-run.ts.

import type { Command } from "commander";
import type { ExitWith } from "./exit-with.js";

/** Adds `approve <id>` and `deny <id>`, each with --yes for scripts. */
export function registerApprovals(program: Command, exitWith: ExitWith): void {
  for (const decision of ["approve", "deny"] as const) {
    program
      .command(decision)
      .summary(`${decision} a pending approval of a rule-guarded call`)
      .description(
        `show the exact command an agent asked to run (APPROVAL_REQUIRED) and ${decision} it; ` +
          "asks on the terminal unless --yes is given",
      )
      .argument("<id>", "the 32-hex approval id from the APPROVAL_REQUIRED message")
      .option("--yes", `${decision} without asking (for scripts)`)
      .action(async (id: string, options: { yes?: boolean }) => {
        const { runApproval } = await import("./approve-run.js");
        exitWith(await runApproval(id, decision, options));
      });
  }
}
