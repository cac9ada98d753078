// Human approval through the client (SPEC §21): a form-mode `elicitation/create` showing the
// program, the exact arguments (JSON-quoted), the cwd and the rule's reason.

import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitResultSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { ApprovalQuestion, Caller, ElicitationAnswer } from "../policy/gate.js";
import { ELICITATION_TIMEOUT_MS } from "../policy/constants.js";
import { displayList, displayText } from "../display-text.js";

/** The one field of the approval form. */
const DECISION_SCHEMA = {
  type: "object" as const,
  properties: {
    decision: {
      type: "string" as const,
      title: "Decision",
      description: 'choose "run" to run exactly this command, "deny" to refuse it',
      enum: ["run", "deny"],
    },
  },
  required: ["decision"],
};

/** The message the human reads. */
export function approvalMessage(question: ApprovalQuestion): string {
  return [
    `An agent asks to run ${displayText(question.program)} with arguments that need your approval.`,
    `program: ${displayText(question.program)}`,
    `args: ${displayList(question.args)}`,
    `cwd: ${displayText(question.cwd)}`,
    `reason (rule ${question.rule}): ${displayText(question.reason)}`,
    ...(question.because
      ? [`decided by the strictest rule because: ${displayText(question.because)}`]
      : []),
    'Answer "run" to run exactly this once, or "deny".',
  ].join("\n");
}

/** Sends the elicitation and maps every way it can end to an answer (only "run" runs). */
async function elicit(
  server: Server,
  question: ApprovalQuestion,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  const declaresForm = server.getClientCapabilities()?.elicitation?.form !== undefined;
  const params = {
    ...(declaresForm && { mode: "form" as const }),
    message: approvalMessage(question),
    requestedSchema: DECISION_SCHEMA,
  };
  let result;
  try {
    result = await server.request({ method: "elicitation/create", params }, ElicitResultSchema, {
      signal,
      timeout: ELICITATION_TIMEOUT_MS,
    });
  } catch (error) {
    return signal.aborted ? "cancel" : isTimeout(error) ? "timeout" : "cancel";
  }
  if (result.action === "decline") return "decline";
  if (result.action !== "accept") return "cancel";
  return result.content?.decision === "run" ? "run" : "deny";
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === ErrorCode.RequestTimeout;
}

/** The caller of one tools/call: the client's identity, and elicitation when it declared it. */
export function callerOf(server: Server, signal: AbortSignal): Caller {
  const version = server.getClientVersion();
  const caller: Caller = {};
  if (version) caller.client = { name: version.name, version: version.version };
  if (server.getClientCapabilities()?.elicitation) {
    caller.ask = (question) => elicit(server, question, signal);
  }
  return caller;
}
