// `audit verify [PATH]` / `audit tail [-n N] [PATH]` (SPEC §22): registers the commands; the
// work is in audit-run.ts.

import { Option, type Command } from "commander";
import { DEFAULT_TAIL_EVENTS } from "../../policy/constants.js";
import { integerIn } from "../options.js";
import type { AuditCommandOptions } from "./audit-run.js";
import type { ExitWith } from "./exit-with.js";

/** The largest -n accepted. */
const MAX_TAIL_EVENTS = 1_000_000;

/** Adds `audit` with its two subcommands. */
export function registerAudit(program: Command, exitWith: ExitWith): void {
  const audit = program
    .command("audit")
    .summary("verify or read an audit log")
    .description(
      "verify the hash chains of an audit log, or print its last events; PATH defaults to the " +
        "audit.path of --manifest",
    );
  audit
    .command("verify")
    .description(
      "check every chain (links, seq gaps, a truncated last line); exit 1 naming the first bad line",
    )
    .argument("[path]", "the audit log (JSON Lines)")
    .option("--manifest <path>", "take the path from this manifest's audit.path")
    .action(async (file: string | undefined, options: AuditCommandOptions) => {
      const { runAuditVerify } = await import("./audit-run.js");
      exitWith(await runAuditVerify(file, options));
    });
  audit
    .command("tail")
    .description("print the last N events readably (--json: the raw lines)")
    .argument("[path]", "the audit log (JSON Lines)")
    .addOption(
      new Option("-n <count>", `how many events (default ${DEFAULT_TAIL_EVENTS})`).argParser(
        integerIn(1, MAX_TAIL_EVENTS),
      ),
    )
    .option("--json", "print the raw JSON lines")
    .option("--manifest <path>", "take the path from this manifest's audit.path")
    .action(async (file: string | undefined, options: AuditCommandOptions) => {
      const { runAuditTail } = await import("./audit-run.js");
      exitWith(await runAuditTail(file, options));
    });
}
