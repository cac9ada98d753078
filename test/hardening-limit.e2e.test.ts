// system_output `limit` beyond the page maximum is clamped, not refused (§3.3; #14) — also when
// it is past 2^53 (not a safe integer, but an integer all the same) or 1e300.

import { describe, expect, it } from "vitest";
import { shareServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
shareServer(undefined, [], (started) => (server = started));

const OUTPUT_BYTES = 700 * 1024;

describe("system_output limit clamping", () => {
  it("clamps limit 2^53 and 1e300 to the page maximum of each encoding", async () => {
    const result = await server.exec({
      program: "node",
      args: ["-e", `process.stdout.write("a".repeat(${OUTPUT_BYTES}))`],
    });
    expect(result.artifact.status).toBe("published");
    const id = result.artifact.id;
    for (const limit of [2 ** 53, 2 ** 53 + 2, 1e300, Number.MAX_VALUE]) {
      for (const [encoding, max] of [
        ["utf8", 512 * 1024],
        ["base64", OUTPUT_BYTES],
      ] as const) {
        const page = await server.call("system_output", {
          id,
          stream: "stdout",
          offset: 0,
          limit,
          encoding,
        });
        expect(page.isError, JSON.stringify(page.content).slice(0, 200)).toBeFalsy();
        const bytes = (page.structuredContent as any).bytes;
        // utf8 pages may end earlier (escaped-length guard, §3.3); base64 pages are exact.
        if (encoding === "base64") expect(bytes).toBe(max);
        else expect(bytes > 0 && bytes <= max).toBe(true);
      }
    }
  });
});
