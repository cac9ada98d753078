// Where the audit log is (SPEC §22): the flag, else the manifest's path. Its own module so that
// `doctor` and `audit` learn the path without loading the approvals store and the audit trail.

import os from "node:os";
import path from "node:path";
import { CommandError } from "../errors.js";
import type { AuditSettings } from "./types.js";

/** Expands a leading `~/` of a manifest audit path. */
function expandHome(file: string): string {
  return file.startsWith("~/") ? path.join(os.homedir(), file.slice(2)) : file;
}

/** The audit log path in effect: the flag, else the manifest's; undefined when off. */
export function auditPathOf(
  flag: string | undefined,
  settings: AuditSettings | undefined,
): string | undefined {
  if (flag !== undefined) return path.resolve(flag);
  if (settings === undefined) return undefined;
  if (settings.path === undefined) {
    throw new CommandError(
      "AUDIT_UNAVAILABLE",
      'the manifest has "audit" without "path" and no --audit-log was given; ' +
        'expected one of them (or remove "audit")',
    );
  }
  return path.resolve(expandHome(settings.path));
}
