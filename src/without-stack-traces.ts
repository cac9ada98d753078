// Probes whose usual answer is a thrown errno (ENOENT, ESRCH), run on every call or confined
// launch: the error is built without capturing a stack trace. A shared leaf module, so stages
// may use it too.

/** Runs `probe` with `Error.stackTraceLimit` at 0, restoring it afterwards whatever happens. */
export function withoutStackTraces<T>(probe: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return probe();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
