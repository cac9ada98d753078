// Running handles (SPEC §6.7, §19): progress stops once a handle is returned, system_cancel's
// gracePeriodMs is obeyed both ways, and only HANDLE_RETENTION_COUNT ended handles are kept.

import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HANDLE_RETENTION_COUNT, PROGRESS_INTERVAL_MS } from "../src/limits.js";
import { startRawServer } from "./helpers/raw-server.js";
import {
  errorText,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  waitForLine,
  type TestServer,
} from "./helpers/server.js";

let dir: string;
let manifest: string;
let server: TestServer;

/** sh that, on SIGTERM, needs `seconds` to finish its cleanup and then exits 0. */
function slowCleanup(seconds: number): string[] {
  return ["-c", `trap 'sleep ${seconds}; exit 0' TERM; echo ready; while :; do sleep 0.1; done`];
}

beforeAll(async () => {
  dir = tempDir("scm-handles-");
  manifest = writeManifest(dir, {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    programs: {
      sh: { candidates: ["/bin/sh"] },
      // The same shell under two grace periods, so the requested one can be told apart.
      patient: { candidates: ["/bin/sh"], policy: { gracePeriodMs: 4_000 } },
      hasty: { candidates: ["/bin/sh"], policy: { gracePeriodMs: 200 } },
      true: { candidates: ["true"], policy: { allowBackground: true } },
    },
  });
  server = await startServer({
    args: ["--manifest", manifest, "--root", dir, "--artifact-dir", path.join(dir, "a")],
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  removeDir(dir);
});

/** Starts `program` with a running handle once it printed "ready"; returns the execution id. */
async function startReady(program: string, args: string[]): Promise<string> {
  const started = await server.exec({ program, args, yieldMs: 1 });
  const id = started.executionId as string;
  if (started.status === "running") {
    const ready = await waitForLine(server, id, "^ready$", { waitMs: 30_000 });
    expect(ready.text).toBe("ready");
  }
  return id;
}

/** system_cancel, then the completed result (system_wait if cancel answered with a snapshot). */
async function cancelled(id: string, gracePeriodMs: number): Promise<Record<string, any>> {
  let report = (await server.call("system_cancel", { executionId: id, gracePeriodMs }))
    .structuredContent as Record<string, any>;
  while (report.status !== "completed") {
    report = (await server.call("system_wait", { executionId: id, waitMs: 30_000 }))
      .structuredContent as Record<string, any>;
  }
  return report;
}

describe("system_cancel gracePeriodMs", () => {
  it("0 forces at once, although the program's own grace would let it clean up", async () => {
    const id = await startReady("patient", slowCleanup(0.3));
    const result = await cancelled(id, 0);
    expect(result.cancelled).toBe(true);
    expect(result.termination).toMatchObject({
      reason: "cancelled",
      gracefulRequested: true,
      forceUsed: true,
    });
    expect(result.signal).toBe("SIGKILL");
  });

  it("a grace longer than the program's is honoured: the cleanup finishes, no force", async () => {
    const id = await startReady("hasty", slowCleanup(1));
    const result = await cancelled(id, 10_000);
    expect(result.cancelled).toBe(true);
    expect(result.termination).toMatchObject({ reason: "cancelled", forceUsed: false });
    expect(result.exitCode).toBe(0);
  });
});

describe("system_wait until", () => {
  it("reports the line's start as offset when the line arrived in two writes", async () => {
    const go = path.join(dir, "go");
    // "first\nab" now; "cd\n" only after the test says go (and a second more), so the second
    // wait has already scanned the unfinished "ab" when the rest of the line arrives.
    const script =
      `printf 'first\\nab'; while [ ! -e "$0" ]; do sleep 0.05; done; sleep 1; ` +
      `printf 'cd\\n'; sleep 30`;
    const started = await server.exec({ program: "sh", args: ["-c", script, go], yieldMs: 1 });
    const id = started.executionId as string;
    expect(started.status).toBe("running");
    const partial = await server.call("system_wait", {
      executionId: id,
      waitMs: 30_000,
      until: { pattern: "^ab$" },
    });
    expect((partial.structuredContent as any).match).toEqual({
      stream: "stdout",
      offset: 6,
      text: "ab",
    });
    const whole = server.call("system_wait", {
      executionId: id,
      waitMs: 30_000,
      until: { pattern: "^abcd$" },
    });
    writeFileSync(go, "");
    const report = (await whole).structuredContent as any;
    expect(report.match).toEqual({ stream: "stdout", offset: 6, text: "abcd" });
    await cancelled(id, 0);
  });
});

describe("handle retention", () => {
  it(`keeps only the ${HANDLE_RETENTION_COUNT} most recently ended handles`, async () => {
    const ids: string[] = [];
    for (let i = 0; i <= HANDLE_RETENTION_COUNT; i++) {
      const started = await server.exec({ program: "true", background: true });
      const id = started.executionId as string;
      ids.push(id);
      let report = started;
      while (report.status !== "completed") {
        report = (await server.call("system_wait", { executionId: id, waitMs: 30_000 }))
          .structuredContent as Record<string, any>;
      }
    }
    const oldest = await server.call("system_wait", { executionId: ids[0], waitMs: 0 });
    expect(oldest.isError).toBe(true);
    expect(errorText(oldest)).toMatch(/^EXECUTION_NOT_FOUND: /);
    for (const id of [ids[1], ids[ids.length - 1]]) {
      const kept = await server.call("system_wait", { executionId: id, waitMs: 0 });
      expect(kept.isError).toBe(false);
      expect((kept.structuredContent as any).status).toBe("completed");
    }
  }, 120_000);
});

describe("progress", () => {
  it("stops once the call returned a running handle", async () => {
    const raw = startRawServer([
      "--manifest",
      manifest,
      "--root",
      dir,
      "--artifact-dir",
      path.join(dir, "a"),
    ]);
    try {
      await raw.initialize();
      const progressLines = () =>
        raw.lines
          .map((line) => JSON.parse(line))
          .filter((m) => m.method === "notifications/progress")
          .filter((m) => m.params.progressToken === "p1").length;
      raw.callTool(
        1,
        "system_exec",
        { program: "sh", args: ["-c", "sleep 30"], yieldMs: 3 * PROGRESS_INTERVAL_MS },
        { progressToken: "p1" },
      );
      const response = await raw.response(1);
      expect(response.result.structuredContent.status).toBe("running");
      const beforeHandOut = progressLines();
      expect(beforeHandOut).toBeGreaterThan(0);
      // Several intervals pass while the execution keeps running; none may bring progress.
      raw.callTool(2, "system_wait", {
        executionId: response.result.structuredContent.executionId,
        waitMs: 3 * PROGRESS_INTERVAL_MS,
      });
      expect((await raw.response(2)).result.structuredContent.status).toBe("running");
      expect(progressLines()).toBe(beforeHandOut);
    } finally {
      raw.child.stdin.end();
      await raw.exited;
    }
  }, 60_000);
});
