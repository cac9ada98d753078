// One scripted host session as a test sees it: the host's run, the mock that played the model and
// the workspace of our server; the checks every session must pass, and what the model saw.

import { expect } from "vitest";
import type { MockModel } from "./loopback.js";
import type { RunResult } from "./run.js";
import type { SeenResult } from "./script.js";
import type { Workspace } from "./server.js";

export interface HostSession<M> {
  run: RunResult;
  model: M;
  space: Workspace;
}

/** The host ran to the end within its time, exited 0, and the mock had no script error. */
export function expectCleanRun(run: RunResult, model: MockModel<unknown>): void {
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  expect(model.errors).toEqual([]);
}

/** The results the model saw by the end of a session (the last request holds them all). */
export function finalResults(model: MockModel<{ results: SeenResult[] }>): SeenResult[] {
  return model.requests.at(-1)?.results ?? [];
}
