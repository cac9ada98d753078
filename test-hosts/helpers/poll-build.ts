// One scripted session shared by the hosts that show the model only new output when it polls a
// running build (SPEC §19 Revision 3): a build printing numbered lines for a few seconds, a
// running handle after yieldMs, then system_wait polls; the model must see each line once, in
// ranges that follow each other (sinceOffset), and the completed result with the whole output.

import { expect } from "vitest";
import { stripReminders } from "./claude.js";
import { jsonIn, type ScriptedTurn } from "./script.js";

/** Lines the build prints, one every LINE_MS. */
const BUILD_LINES = 40;
const LINE_MS = 150;
const YIELD_MS = 600;
/** How many system_wait calls follow the handle (more than the build needs to end). */
const WAITS = 8;
const WAIT_MS = 900;

/** Line n of the build's stdout. */
const buildLine = (n: number) => `step ${String(n).padStart(3, "0")} compiled\n`;

/** The build's whole stdout. */
export function buildOutput(): string {
  let out = "";
  for (let n = 1; n <= BUILD_LINES; n++) out += buildLine(n);
  return out;
}

const BUILD_SCRIPT =
  `let n = 0; const t = setInterval(() => { n++; ` +
  `process.stdout.write("step " + String(n).padStart(3, "0") + " compiled\\n"); ` +
  `if (n >= ${BUILD_LINES}) clearInterval(t); }, ${LINE_MS});`;

/**
 * The turns: the build with a short yieldMs, then WAITS polls of the handle (each `waitMs`
 * differs a little: Gemini stops a session that repeats an identical call).
 */
export const POLL_BUILD_TURNS: ScriptedTurn[] = [
  {
    tool: "system_exec",
    args: () => ({
      program: "node",
      args: ["-e", BUILD_SCRIPT],
      yieldMs: YIELD_MS,
      timeoutMs: 60_000,
    }),
  },
  ...Array.from({ length: WAITS }, (_, index) => ({
    tool: "system_wait",
    args: (results: string[]) => ({
      executionId: jsonIn(stripReminders(results[0] ?? "")).executionId ?? "missing",
      waitMs: WAIT_MS + index,
    }),
  })),
];

/** Number of results the session produces. */
export const POLL_BUILD_RESULTS = 1 + WAITS;

/**
 * What the model saw (parsed, in call order) shows each new line once: the running snapshots'
 * ranges follow each other without overlap, each holds whole lines, later ones start past 0,
 * and the completed result carries the whole output.
 */
export function expectOnlyNewOutput(seen: Record<string, any>[]): void {
  const whole = buildOutput();
  const running = seen.filter((result) => result.status === "running");
  expect(
    running.length,
    "at least the handle and one poll ran while the build did",
  ).toBeGreaterThanOrEqual(2);
  expect(seen.slice(0, running.length).every((r) => r.status === "running")).toBe(true);
  let next = 0;
  let shown = "";
  for (const snapshot of running) {
    // Compact snapshots (docs/results.md): no stdout when nothing is new, `{ text }` when the
    // text is everything from byte 0, else every counter with sinceOffset.
    const stdout = snapshot.stdout;
    if (stdout === undefined) continue;
    expect(stdout.truncated ?? false).toBe(false);
    const since = "sinceOffset" in stdout ? stdout.sinceOffset : 0;
    expect(since, "each snapshot starts where the previous one ended").toBe(next);
    expect(stdout.text === "" || stdout.text.endsWith("\n"), "whole lines only").toBe(true);
    next += Buffer.byteLength(stdout.text);
    shown += stdout.text;
    if ("totalBytes" in stdout) expect(stdout.totalBytes).toBeGreaterThanOrEqual(next);
  }
  expect(whole.startsWith(shown)).toBe(true);
  const lines = shown.split("\n").filter(Boolean);
  expect(new Set(lines).size, "no line shown twice").toBe(lines.length);
  expect(running.some((s) => s.stdout?.sinceOffset > 0 && s.stdout.text !== "")).toBe(true);
  const completed = seen.find((result) => result.status === "completed");
  expect(completed, "the build completed within the polls").toBeDefined();
  expect(completed!.exitCode).toBe(0);
  expect(completed!.stdout.text).toBe(whole);
  expect("sinceOffset" in completed!.stdout).toBe(false);
}
