// Builds the policy stage for a server or `exec`: the approvals store in the per-user state
// directory and, when configured, the audit log (SPEC §21, §22).

import path from "node:path";
import { defaultExecutionsDir } from "../process/crash-registry.js";
import { ApprovalStore, approvalsDirUnder } from "./approvals.js";
import { auditPathOf } from "./audit-path.js";
import { SyslogCopy, syslogTarget } from "./audit-syslog.js";
import { AuditTrail, type ChainStartFacts } from "./audit-trail.js";
import { CommandError } from "../errors.js";
import { PolicyGate } from "./gate.js";
import type { AuditSettings } from "./types.js";

export interface PolicySetupInput {
  manifestPath?: string;
  /** The manifest's `audit` object. */
  manifestAudit?: AuditSettings;
  /** `--audit-log PATH` (wins over the manifest's path). */
  auditLogFlag?: string;
  chainStart: Omit<ChainStartFacts, "manifestPath">;
  env?: Record<string, string | undefined>;
  onAuditFailure?: (message: string) => void;
  /** stderr lines (a failed system-log send, §22.1). */
  log?: (line: string) => void;
}

export interface PolicyStage {
  gate: PolicyGate;
  /** Where pending and granted approvals are kept. */
  approvalsDir: string;
  audit?: AuditTrail;
}

/** The per-user approvals directory (next to §19's executions directory). */
export function defaultApprovalsDir(env: Record<string, string | undefined> = process.env): string {
  return approvalsDirUnder(path.dirname(defaultExecutionsDir(env)));
}

/** The system-log copy of `audit.syslog` (§22.1); INVALID_MANIFEST when it names no target. */
function copyOf(setting: true | string | undefined, log: (line: string) => void) {
  if (setting === undefined) return undefined;
  const target = syslogTarget(setting);
  if (!target) {
    throw new CommandError(
      "INVALID_MANIFEST",
      `/audit/syslog: expected true, "unix:/path", "udp://host:port" or "tcp://host:port", got ${JSON.stringify(setting)}`,
    );
  }
  return new SyslogCopy(target, log);
}

/** Opens the stage; AUDIT_UNAVAILABLE when the audit log cannot be opened (startup stops). */
export function createPolicyStage(input: PolicySetupInput): PolicyStage {
  const auditPath = auditPathOf(input.auditLogFlag, input.manifestAudit);
  const audit =
    auditPath === undefined
      ? undefined
      : AuditTrail.open(
          auditPath,
          input.manifestAudit?.args ?? "digest",
          { ...input.chainStart, ...(input.manifestPath && { manifestPath: input.manifestPath }) },
          input.onAuditFailure,
          copyOf(input.manifestAudit?.syslog, input.log ?? (() => {})),
        );
  const approvals = new ApprovalStore(defaultApprovalsDir(input.env));
  const gate = new PolicyGate({
    approvals,
    ...(input.manifestPath !== undefined && { manifestPath: input.manifestPath }),
    ...(audit !== undefined && { audit }),
  });
  return audit
    ? { gate, approvalsDir: approvals.dir, audit }
    : { gate, approvalsDir: approvals.dir };
}
