// Error messages quote at most ~200 characters of any request value (#14): a 9 MiB cwd or a 4 MiB
// tool name of quotes must not come back as a response line past the SDK client's 10 MiB limit.

import { describe, expect, it } from "vitest";
import { errorText, shareServer, type TestServer } from "./helpers/server.js";

const MiB = 1024 * 1024;
/** Far above any useful message, far below the megabytes an unbounded echo sends back. */
const MAX_MESSAGE_CHARS = 4096;
const HEX_ID = "0123456789abcdef0123456789abcdef";

let server: TestServer;
shareServer(undefined, [], (started) => (server = started));

/** A long value of a kind that escapes badly in JSON (quotes, backslashes, control characters). */
function huge(chars: number, unit = '"'): string {
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

const cases: [string, string, Record<string, unknown>, RegExp][] = [
  ["a 9 MiB cwd", "system_exec", { program: "true", cwd: huge(9 * MiB, "d/") }, /^CWD_/],
  [
    "a 4 MiB absolute cwd",
    "system_exec",
    { program: "true", cwd: "/" + huge(4 * MiB, "\\") },
    /^CWD_/,
  ],
  ["a 4 MiB program name", "system_exec", { program: huge(4 * MiB) }, /^PROGRAM_NOT_REGISTERED/],
  ["a 4 MiB unknown key", "system_exec", { program: "true", [huge(4 * MiB)]: 1 }, /^INVALID_/],
  [
    "a 4 MiB artifact id",
    "system_output",
    { id: huge(4 * MiB), stream: "stdout", offset: 0 },
    /^ARTIFACT_NOT_FOUND/,
  ],
  [
    "a 4 MiB stream",
    "system_output",
    { id: HEX_ID, stream: huge(4 * MiB), offset: 0 },
    /^INVALID_/,
  ],
  [
    "a 4 MiB encoding",
    "system_output",
    { id: HEX_ID, stream: "stdout", offset: 0, encoding: huge(4 * MiB) },
    /^INVALID_/,
  ],
  ["a 4 MiB execution id", "system_wait", { executionId: huge(4 * MiB) }, /^EXECUTION_NOT_FOUND/],
  [
    "a 4 MiB pattern",
    "system_wait",
    { executionId: HEX_ID, until: { pattern: huge(4 * MiB) } },
    /^(INVALID_PATTERN|EXECUTION_NOT_FOUND)/,
  ],
  ["a 4 MiB cancel id", "system_cancel", { executionId: huge(4 * MiB) }, /^EXECUTION_NOT_FOUND/],
  [
    "a 4 MiB timeoutMs string",
    "system_exec",
    { program: "true", timeoutMs: huge(4 * MiB) },
    /^INVALID_TIMEOUT/,
  ],
  [
    "a 4 MiB args item of a wrong type",
    "system_exec",
    { program: "true", args: [{ [huge(4 * MiB)]: 1 }] },
    /^INVALID_ARGUMENT/,
  ],
];

describe("bounded echo of request values in error messages", () => {
  for (const [what, tool, args, code] of cases) {
    it(`${tool} with ${what} answers a short coded error`, async () => {
      const result = await server.call(tool, args);
      const text = errorText(result);
      expect(result.isError).toBe(true);
      expect(text).toMatch(code);
      expect(text.length).toBeLessThan(MAX_MESSAGE_CHARS);
    });
  }

  it("an unknown 4 MiB tool name of quotes gets a short JSON-RPC error", async () => {
    const error = await server.client.callTool({ name: huge(4 * MiB), arguments: {} }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.message).toMatch(/-32602|unknown tool/);
    expect(error!.message.length).toBeLessThan(MAX_MESSAGE_CHARS);
  });
});
