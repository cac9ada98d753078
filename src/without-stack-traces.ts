// Probes whose usual answer is a thrown errno (ENOENT, ESRCH), run on every call or confined
// launch: the error is built without capturing a stack trace. A shared leaf module, so stages
// may use it too.
//
// Why it is worth changing a global: capturing the trace is most of the cost of such a throw
// (about 10 µs of ~35 µs per failed realpath on the development machine, measured with 200,000
// probes), paid on every call. The risk is the global staying at 0, or code running while it is
// 0 that needs a trace. Both are bounded here: the probe must be synchronous (so nothing else runs
// while the limit is 0; a promise is refused), and the limit is restored in `finally`, whatever
// the probe does. test/without-stack-traces.test.ts pins both.

/** The result type of a probe: a synchronous value only (a promise would outlive the window). */
export type SyncResult<T> = T extends PromiseLike<unknown> ? never : T;

/** Runs `probe` with `Error.stackTraceLimit` at 0, restoring it afterwards whatever happens. */
export function withoutStackTraces<T>(probe: () => T): SyncResult<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let result: T;
  try {
    result = probe();
  } finally {
    Error.stackTraceLimit = limit;
  }
  if (isThenable(result)) {
    throw new TypeError(
      "withoutStackTraces expected a synchronous probe, got one that returned a promise " +
        "(the stack trace limit is restored before a promise settles)",
    );
  }
  return result as SyncResult<T>;
}

function isThenable(value: unknown): boolean {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
