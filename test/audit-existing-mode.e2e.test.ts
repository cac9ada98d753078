// An audit log that already exists with a wider mode (SPEC §22: the log is 0600) is made 0600 when
// a server opens it — a fresh empty file and the log of an earlier session alike. Pins
// audit-trail.ts's fchmod of an existing file (issue 24 mutant: no test pre-created it 0644).

import { chmodSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configuredArgs, removeDir, startServer, tempDir } from "./helpers/server.js";

let dir: string;

beforeEach(() => {
  dir = tempDir();
});

afterEach(() => {
  removeDir(dir);
});

const modeOf = (file: string) => statSync(file).mode & 0o777;

/** Starts a server on the log, makes one call (so startup is done), closes it. */
async function session(log: string): Promise<void> {
  const server = await startServer({ args: configuredArgs(dir, undefined, ["--audit-log", log]) });
  try {
    const result = await server.call("system_environment");
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as any).audit.path).toBe(log);
  } finally {
    await server.close();
  }
}

describe("an existing audit log with mode 0644", () => {
  it("a pre-created empty file is 0600 once the server started", async () => {
    const log = path.join(dir, "audit.jsonl");
    writeFileSync(log, "");
    chmodSync(log, 0o644);
    expect(modeOf(log)).toBe(0o644);
    await session(log);
    expect(modeOf(log)).toBe(0o600);
  });

  it("an earlier session's log widened to 0644 is 0600 again after the next start", async () => {
    const log = path.join(dir, "audit.jsonl");
    await session(log);
    expect(modeOf(log)).toBe(0o600);
    chmodSync(log, 0o644);
    await session(log);
    expect(modeOf(log)).toBe(0o600);
  });
});
