// The pre-spawn gate (SPEC §21, §22): argument rules decide allow / deny / ask; an ask is answered
// by the human through the client (elicitation) or out of band (`approve <id>`); every decision
// that is made is recorded in the audit log when one is configured.

import { CommandError } from "../errors.js";
import type { ApprovalStore, ClaimRefusal } from "./approvals.js";
import { randomId, type CwdIdentity } from "./digest.js";
import { cwdIdentityOf } from "./cwd-identity.js";
import { grammarOfProgram } from "./grammar/index.js";
import { decideCall } from "./rules.js";
import type { AuditTrail, ExecRecorder } from "./audit-trail.js";
import type { PolicyProgram, Rule } from "./types.js";

/** What the human is shown when asked. */
export interface ApprovalQuestion {
  program: string;
  args: readonly string[];
  cwd: string;
  reason: string;
  rule: number;
  /** Set when the strictest rule decided because the call could not be read exactly (§21.1). */
  because?: string;
}

/** How an elicitation ended: only "run" lets the call run. */
export type ElicitationAnswer = "run" | "deny" | "decline" | "cancel" | "timeout";

/** Who is calling: the client's identity, and a way to ask its human when it has one. */
export interface Caller {
  client?: { name: string; version: string };
  /** Present when the client declared the `elicitation` capability. */
  ask?: (question: ApprovalQuestion) => Promise<ElicitationAnswer>;
  /** How this caller passes an approval id back: the CLI's `--approval-id` (§13); absent: the
   * `approvalId` field of system_exec. */
  approvalParameter?: string;
}

/** One call as the gate sees it, after request validation. */
export interface GateCall {
  program: PolicyProgram;
  args: readonly string[];
  /** The physical cwd the process will start in. */
  cwd: string;
  /** Its device and inode as authorised; absent: the gate reads them when it needs them. */
  cwdIdentity?: CwdIdentity;
  approvalId?: string;
}

/** A call the gate let through: how it was decided, and where its execution is recorded. */
export interface Admission {
  decision: "allow" | "approved";
  /** Records the execution (absent without an audit log). */
  recorder?: ExecRecorder;
}

export interface PolicyGateOptions {
  manifestPath?: string;
  approvals: ApprovalStore;
  audit?: AuditTrail;
}

/** The words of APPROVAL_REQUIRED after the id (SPEC §21). */
function approvalInstruction(id: string, parameter: string | undefined): string {
  const again = parameter === undefined ? '"approvalId"' : `${parameter} ${id}`;
  return `run "system-command-mcp approve ${id}" in a terminal, then call again with ${again}`;
}

const REFUSAL_WORDS: Record<ClaimRefusal, string> = {
  unknown: "is not a pending approval",
  pending: "has not been approved yet",
  denied: "was denied",
  expired: "has expired",
  mismatched: "was granted for a different program, arguments, cwd or manifest",
  used: "was already used",
};

/** Why the strictest rule decided, for the messages (empty when the call was read exactly). */
function strictestNote(question: ApprovalQuestion): string {
  return question.because ? `; the strictest rule decides because ${question.because}` : "";
}

/** Decides, before anything is spawned, whether a call may run. */
export class PolicyGate {
  constructor(private readonly options: PolicyGateOptions) {}

  /** Resolves with the admission, or rejects with ARGUMENTS_DENIED / APPROVAL_* / AUDIT_UNAVAILABLE. */
  async admit(call: GateCall, caller: Caller = {}): Promise<Admission> {
    const audit = this.options.audit;
    audit?.assertWritable();
    const rules: readonly Rule[] = call.program.rules ?? [];
    const verdict = decideCall(rules, call.args, grammarOfProgram(call.program));
    const because =
      verdict.decision !== "allow" && verdict.because
        ? `; the strictest rule decides because ${verdict.because}`
        : "";
    if (verdict.decision === "deny") {
      audit?.denied(call, verdict.index);
      throw new CommandError(
        "ARGUMENTS_DENIED",
        `${call.program.name}: these arguments are denied by rule ${verdict.index} of the ` +
          `manifest (${JSON.stringify(verdict.rule.reason)})${because}; nothing ran. Do not retry the same ` +
          "arguments: change them, or ask the user to run the command themselves",
      );
    }
    let decision: Admission["decision"] = "allow";
    if (verdict.decision === "ask") {
      const question: ApprovalQuestion = {
        program: call.program.name,
        args: call.args,
        cwd: call.cwd,
        reason: verdict.rule.reason,
        rule: verdict.index,
        ...(verdict.because !== undefined && { because: verdict.because }),
      };
      if (caller.ask) await this.askClient(question, caller.ask);
      else this.claimOrRequest(call, question, caller.approvalParameter);
      decision = "approved";
    }
    audit?.assertWritable();
    const recorder = audit?.execution(call, decision, caller.client);
    return recorder ? { decision, recorder } : { decision };
  }

  /** Form-mode elicitation: "run" runs; decline, cancel, deny or a timeout refuse. */
  private async askClient(
    question: ApprovalQuestion,
    ask: NonNullable<Caller["ask"]>,
  ): Promise<void> {
    const id = randomId();
    let answer: ElicitationAnswer;
    try {
      answer = await ask(question);
    } catch {
      answer = "cancel";
    }
    const approved = answer === "run";
    this.options.audit?.approval(id, approved ? "approved" : "denied", "elicitation", answer);
    if (!approved) {
      throw new CommandError(
        "APPROVAL_DENIED",
        `${question.program}: the user did not approve these arguments (rule ${question.rule}: ` +
          `${JSON.stringify(question.reason)}${strictestNote(question)}; answer: ${answer}); nothing ran. Do not retry ` +
          "the same call unless the user asks for it",
      );
    }
  }

  /** Uses a valid approvalId, or stores a new pending request and answers APPROVAL_REQUIRED. */
  private claimOrRequest(
    call: GateCall,
    question: ApprovalQuestion,
    parameter: string | undefined,
  ): void {
    const store = this.options.approvals;
    const binding = {
      program: call.program.name,
      args: call.args,
      cwd: call.cwd,
      cwdIdentity: call.cwdIdentity ?? cwdIdentityOf(call.cwd),
      manifestPath: this.options.manifestPath,
    };
    let note = "";
    if (call.approvalId !== undefined) {
      const claim = store.claim(call.approvalId, binding);
      if (claim.ok) {
        this.options.audit?.approval(call.approvalId, "approved", "cli", "claimed");
        return;
      }
      this.options.audit?.approval(call.approvalId, "refused", "cli", claim.why);
      const named = `${parameter ?? "approvalId"} ${JSON.stringify(call.approvalId)}`;
      note = ` (${named} ${REFUSAL_WORDS[claim.why]})`;
    }
    const reason = question.because
      ? `${question.reason} (the strictest rule, because ${question.because})`
      : question.reason;
    const pending = store.create({ ...binding, reason, rule: question.rule });
    this.options.audit?.approval(pending.id, "pending", "cli", "requested");
    throw new CommandError(
      "APPROVAL_REQUIRED",
      `${call.program.name}: these arguments need a human approval (rule ${question.rule}: ` +
        `${JSON.stringify(question.reason)}${strictestNote(question)})${note}; approval id ${pending.id}: ` +
        approvalInstruction(pending.id, parameter),
    );
  }
}
