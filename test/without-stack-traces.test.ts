// withoutStackTraces (src/without-stack-traces.ts) changes the global Error.stackTraceLimit for
// the length of one synchronous probe: errors thrown inside carry no stack frames, and the limit
// is back to what it was after a return, a throw, a nested call, and a refused async probe.

import { realpathSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withoutStackTraces } from "../src/without-stack-traces.js";

const CUSTOM_LIMIT = 17;
let saved: number;

beforeEach(() => {
  saved = Error.stackTraceLimit;
  Error.stackTraceLimit = CUSTOM_LIMIT;
});

afterEach(() => {
  Error.stackTraceLimit = saved;
});

/** The stack frames ("    at …" lines) of an error. */
const frames = (error: unknown) =>
  String((error as Error).stack ?? "")
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "));

describe("withoutStackTraces", () => {
  it("the probe's errors carry no frames; errors after it carry them again", () => {
    let inside: unknown;
    withoutStackTraces(() => {
      try {
        realpathSync.native("/nonexistent-scm-probe/x");
      } catch (error) {
        inside = error;
      }
    });
    expect((inside as NodeJS.ErrnoException).code).toBe("ENOENT");
    expect(frames(inside)).toEqual([]);
    expect(frames(new Error("after")).length).toBeGreaterThan(0);
  });

  it("returns the probe's value and restores the limit", () => {
    expect(withoutStackTraces(() => Error.stackTraceLimit)).toBe(0);
    expect(Error.stackTraceLimit).toBe(CUSTOM_LIMIT);
  });

  it("restores the limit when the probe throws, and lets the error through", () => {
    const failing = () =>
      withoutStackTraces(() => {
        throw Object.assign(new Error("probe failed"), { code: "ESRCH" });
      });
    expect(failing).toThrow("probe failed");
    expect(Error.stackTraceLimit).toBe(CUSTOM_LIMIT);
  });

  it("nested probes restore each level", () => {
    const seen = withoutStackTraces(() => {
      const inner = withoutStackTraces(() => Error.stackTraceLimit);
      return [inner, Error.stackTraceLimit];
    });
    expect(seen).toEqual([0, 0]);
    expect(Error.stackTraceLimit).toBe(CUSTOM_LIMIT);
  });

  it("refuses an async probe, with the limit already restored", async () => {
    let pending: Promise<void> | undefined;
    const asyncProbe = () => {
      pending = Promise.resolve();
      return pending as unknown as number; // what a caller hiding a promise would do
    };
    expect(() => withoutStackTraces(asyncProbe)).toThrow(
      "withoutStackTraces expected a synchronous probe, got one that returned a promise",
    );
    await pending;
    expect(Error.stackTraceLimit).toBe(CUSTOM_LIMIT);
  });
});
