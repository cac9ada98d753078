// One scripted session shared by the hosts that cut long results (Gemini CLI, OpenCode): a
// program longer than the host's own timeout finishes through yield + system_wait, then a result
// the host cuts is followed by a page of its artifact.

import { expect } from "vitest";
import { BIG_CALL, SLOW_CALL, SLOW_MS, SLOW_STDOUT } from "./programs.js";
import { jsonIn, type ScriptedTurn } from "./script.js";

/** How many system_wait calls follow the running handle. */
const WAITS = 5;
/** Index of the big call's result among the session's results. */
export const BIG_RESULT_INDEX = 1 + WAITS;

/**
 * The turns: the slow call, WAITS waits (each `waitMs` differs a little: Gemini stops a session
 * that repeats an identical call), the big call, and a page read by the artifact id a model can
 * still see near the top of the cut result.
 */
export const YIELD_AND_CUT_TURNS: ScriptedTurn[] = [
  { tool: "system_exec", args: () => ({ ...SLOW_CALL, timeoutMs: 60_000 }) },
  ...Array.from({ length: WAITS }, (_, index) => ({
    tool: "system_wait",
    args: (results: string[]) => ({
      executionId: jsonIn(results[0] ?? "").executionId ?? "missing",
      waitMs: 2_500 + index,
    }),
  })),
  { tool: "system_exec", args: () => BIG_CALL },
  {
    tool: "system_output",
    args: (results: string[]) => ({
      id:
        /"artifact":\{"status":"published","id":"([0-9a-f]{32})"/.exec(
          results[BIG_RESULT_INDEX] ?? "",
        )?.[1] ?? "missing",
      stream: "stdout",
      offset: 0,
      limit: 4_096,
    }),
  },
];

/**
 * The session's settings: the entry's `timeout` lowered to 6 s (the printed 300 s) while the
 * program runs 8 s and the server (--yield-ms 1500) hands back a running handle long before;
 * --max-output-bytes 65536 widens the excerpts past what the host keeps whole.
 */
export const YIELD_AND_CUT_OPTIONS = {
  flags: ["--yield-ms", "1500", "--max-output-bytes", "65536"],
  entryChanges: { timeout: 6_000 },
};

/**
 * What the model saw of the slow call and its waits (parsed, in order): a running handle well
 * before the program ended, and last the same execution completed with its output. Claude Code's
 * own session of the slow call is checked the same way.
 */
export function expectYieldedThenCompleted(results: Record<string, any>[]): void {
  expect(results[0]?.status).toBe("running");
  // How many waits see it still running depends on the host's own pace; the handle came first.
  expect(results[0]?.elapsedMs).toBeLessThan(SLOW_MS);
  const last = results.at(-1)!;
  expect(last.status).toBe("completed");
  // Compact (docs/results.md): a completed run with no artifact leaves its executionId out; the
  // model named it in the wait.
  expect(results[0]?.executionId).toMatch(/^[0-9a-f]{32}$/);
  expect(last).not.toHaveProperty("executionId");
  expect(last.exitCode).toBe(0);
  expect(last.stdout.text).toBe(SLOW_STDOUT);
}
