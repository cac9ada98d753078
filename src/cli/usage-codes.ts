// Which coded errors are usage errors (SPEC §13: exit 2, printed with the usage); every other
// CommandError of a command exits 1 (`exec`: 125). The list itself lives once, in errors.ts.

import { USAGE_ERROR_CODES, type ErrorCode } from "../errors.js";

const USAGE_CODES = new Set<ErrorCode>(USAGE_ERROR_CODES);

/** Whether `code` is an invalid invocation (exit 2). */
export function isUsageError(code: ErrorCode): boolean {
  return USAGE_CODES.has(code);
}
