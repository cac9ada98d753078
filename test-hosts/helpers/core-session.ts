// The core session of the model-driven host tests (Claude Code, Gemini CLI, OpenCode): literal
// arguments, a nonzero exit, coded errors, then a big output paged and searched through its
// artifact. The turns they share, and what the model must have seen for each.

import { expect } from "vitest";
import {
  LITERAL_STDOUT,
  MARKER_LINE,
  MARKER_TEXT,
  NONZERO_EXIT_CODE,
  excerptHeadBytes,
  markerOffset,
} from "./programs.js";
import type { ScriptedTurn } from "./script.js";

/** Our tools: a host must offer the model every one (under its own prefix). */
export const OUR_TOOLS = ["system_environment", "system_output", "system_exec", "system_wait"];

/**
 * The two system_output turns after the big call, whose result is `results[bigIndex]` (read with
 * `parse`): a default-size page from where its excerpt's head ends, and a grep for FAILED lines.
 */
export function artifactTurns(
  bigIndex: number,
  parse: (text: string) => Record<string, any>,
): ScriptedTurn[] {
  return [
    {
      tool: "system_output",
      args: (results) => {
        const seen = parse(results[bigIndex] ?? "");
        return {
          id: seen.artifact.id,
          stream: "stdout",
          offset: excerptHeadBytes(seen.stdout.text),
        };
      },
    },
    {
      tool: "system_output",
      args: (results) => ({
        id: parse(results[bigIndex] ?? "").artifact.id,
        stream: "stdout",
        offset: 0,
        grep: { pattern: "^FAILED " },
      }),
    },
  ];
}

/** The first request offered every one of our tools as `<prefix><tool>`. */
export function expectOurToolsOffered(toolNames: string[] | undefined, prefix: string): void {
  for (const tool of OUR_TOOLS) expect(toolNames).toContain(`${prefix}${tool}`);
}

/** Fields a compact result leaves out at their obvious value (docs/results.md "Compact results"). */
const OBVIOUS_FIELDS = ["signal", "timedOut", "cancelled", "termination", "inputBytes"];

/**
 * The literal-args run: completed, exit 0, its arguments back exactly — in the compact form the
 * server sends by default: no field at its obvious value, the whole stdout as `{ text }` only,
 * the empty stderr left out.
 */
export function expectLiteralRun(result: Record<string, any>): void {
  expect(result.status).toBe("completed");
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toEqual({ text: LITERAL_STDOUT });
  expectCompact(result);
  expect(result).not.toHaveProperty("stderr");
}

/** No field at its obvious value, and no programSelection of an unconfined run. */
export function expectCompact(result: Record<string, any>): void {
  for (const field of [...OBVIOUS_FIELDS, "programSelection"]) {
    expect(result, `compact results leave out ${field}`).not.toHaveProperty(field);
  }
}

/** The nonzero exit: a normal result with its code and stderr. */
export function expectNonzeroRun(result: Record<string, any>): void {
  expect(result.exitCode).toBe(NONZERO_EXIT_CODE);
  expect(result.stderr).toEqual({ text: "failing on purpose" });
  expectCompact(result);
}

/** The big run: completed, its stdout truncated, every byte of `big` counted. */
export function expectTruncatedBig(result: Record<string, any>, big: string): void {
  expect(result).toMatchObject({ status: "completed", exitCode: 0 });
  expectCompact(result);
  expect(result.artifact.status).toBe("published");
  expect(result.stdout.truncated).toBe(true);
  expect(result.stdout.totalBytes).toBe(Buffer.byteLength(big));
}

/** The page read from `head`, where the excerpt's head ends: the next bytes of `big`. */
export function expectPageAfterHead(big: string, head: number, page: Record<string, any>): void {
  expect(page.offset).toBe(head);
  expect(page.bytes).toBeGreaterThan(0);
  expect(page.text).toBe(big.slice(head, head + page.bytes));
  expect(page.nextOffset).toBe(head + page.bytes);
}

/** The grep: the one marker line, with its offset and line number, and nothing cut. */
export function expectMarkerFound(found: Record<string, any>): void {
  expect(found.matches).toEqual([{ offset: markerOffset(), line: MARKER_LINE, text: MARKER_TEXT }]);
  expect(found.truncated).toBe(false);
  expect(found.eof).toBe(true);
}
