// Which coded errors are usage errors (SPEC §13: exit 2, printed with the usage); every other
// CommandError of a command exits 1 (`exec`: 125).

import type { ErrorCode } from "../errors.js";

const USAGE_CODES = new Set<ErrorCode>([
  "ROOT_REQUIRED",
  "MANIFEST_REQUIRED",
  "UNKNOWN_COMMAND",
  "UNKNOWN_OPTION",
  "INVALID_OPTION",
  "TTY_REQUIRED",
]);

/** Whether `code` is an invalid invocation (exit 2). */
export function isUsageError(code: ErrorCode): boolean {
  return USAGE_CODES.has(code);
}
