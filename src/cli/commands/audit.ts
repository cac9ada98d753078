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
    .summary("verify, seal or read an audit log")
    .description(
      "verify the hash chains (and seals) of an audit log, seal it, or print its last events; PATH defaults to the " +
        "audit.path of --manifest",
    );
  audit
    .command("verify")
    .description(
      "check every chain (links, seq gaps, a truncated last line); exit 1 naming the first bad line",
    )
    .argument("[path]", "the audit log (JSON Lines)")
    .option("--manifest <path>", "take the path from this manifest's audit.path")
    .option("--key <hex>", "the verification key of a sealed log: check every seal too")
    .option("--state <file>", "the seal state to check against (default: PATH.seal)")
    .action(async (file: string | undefined, options: AuditCommandOptions) => {
      const { runAuditVerify } = await import("./audit-run.js");
      exitWith(await runAuditVerify(file, options));
    });
  audit
    .command("seal")
    .description(
      "seal the log: print a verification key once (keep it off this machine) and write the " +
        "seal state PATH.seal; every later record is sealed",
    )
    .argument("[path]", "the audit log (JSON Lines)")
    .option("--force", "replace an existing seal")
    .option("--manifest <path>", "take the path from this manifest's audit.path")
    .action(async (file: string | undefined, options: AuditCommandOptions) => {
      const { runAuditSeal } = await import("./audit-run.js");
      exitWith(await runAuditSeal(file, options));
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
