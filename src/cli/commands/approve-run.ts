// `approve <id>` / `deny <id>` (SPEC §21): shows the pending request exactly as it will run —
// program, arguments, cwd, manifest and the rule's reason, each one quoted line (displayText) — and
// decides it.

import { displayList, displayText } from "../../display-text.js";
import { CommandError } from "../../errors.js";
import { ApprovalStore, type ApprovalRecord } from "../../policy/approvals.js";
import { APPROVAL_VALIDITY_MS } from "../../policy/constants.js";
import { defaultApprovalsDir } from "../../policy/setup.js";
import { openPrompt } from "./prompt.js";

const MS_PER_MINUTE = 60_000;

/** The request as the human must see it before deciding. */
export function describeApproval(record: ApprovalRecord): string {
  return [
    `approval ${record.id} (${record.status}, requested ${record.createdAt})`,
    `  program:  ${displayText(record.program)}`,
    `  args:     ${displayList(record.args)}`,
    `  cwd:      ${displayText(record.cwd)}`,
    `  manifest: ${record.manifestPath === null ? "(none: automatic discovery)" : displayText(record.manifestPath)}`,
    `  rule ${record.rule}:   ${displayText(record.reason)}`,
    "",
  ].join("\n");
}

/** Shows and decides one approval; resolves to the exit code (0 decided, 1 not decided). */
export async function runApproval(
  id: string,
  command: "approve" | "deny",
  options: { yes?: boolean },
): Promise<number> {
  const store = new ApprovalStore(defaultApprovalsDir());
  const record = store.read(id);
  if (!record) {
    throw new CommandError(
      "APPROVAL_NOT_FOUND",
      `no approval ${JSON.stringify(id)} in ${store.dir}; expected the 32-hex id of an ` +
        "APPROVAL_REQUIRED message (ids are removed once used or long expired)",
    );
  }
  if (options.yes !== true && process.stdin.isTTY !== true) {
    throw new CommandError(
      "TTY_REQUIRED",
      `${command} shows the command and asks before deciding, so it needs a terminal on stdin, ` +
        "got none; run it in a terminal, or pass --yes in a script",
    );
  }
  process.stdout.write(describeApproval(record));
  if (options.yes !== true) {
    const prompt = openPrompt();
    try {
      const question =
        command === "approve" ? "Let the agent run exactly this once?" : "Refuse this request?";
      if (!(await prompt.ask(question, false))) {
        process.stdout.write("nothing decided; the request stays pending\n");
        return 1;
      }
    } finally {
      prompt.close();
    }
  }
  const decided = store.decide(id, command === "approve" ? "approved" : "denied");
  const minutes = APPROVAL_VALIDITY_MS / MS_PER_MINUTE;
  process.stdout.write(
    decided.status === "approved"
      ? `approved: valid for one run of exactly this command within ${minutes} minutes ` +
          `(until ${decided.expiresAt}); the agent calls again with "approvalId": "${id}" ` +
          `(the exec command: the same command line plus --approval-id ${id})\n`
      : "denied: this id will never be valid; a call with it gets APPROVAL_REQUIRED again\n",
  );
  return 0;
}
