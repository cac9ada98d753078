// The one race of a promise against a timer, used wherever the runtime or a stage stops
// waiting. A shared leaf module, so stages may use it too.

/**
 * Resolves with the promise's value (or rejects with its error), or with `fallback` after `ms`;
 * the timer never outlives the promise. A plain timer, not an aborted `timers/promises` delay:
 * aborting one builds an AbortError with a stack trace, on every call that settled in time.
 */
export function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  return new Promise<T | F>((resolve, reject) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
