// Shutdown paths with a running child: stdin EOF, SIGTERM, SIGINT, SIGHUP (SPEC §2, §17).

import { existsSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRawServer, startTreeCall, type RawServer } from "./helpers/raw-server.js";
import { configuredArgs, eventually, isAlive, removeDir, tempDir } from "./helpers/server.js";

let dir: string;
let server: RawServer | undefined;

beforeEach(() => {
  dir = tempDir();
});

afterEach(() => {
  if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  server = undefined;
  removeDir(dir);
});

/** A raw server whose sh may run in the background, initialized. */
async function start(): Promise<RawServer> {
  server = startRawServer(
    configuredArgs(dir, {
      version: 2,
      programs: {
        sh: { candidates: ["/bin/sh"], policy: { allowBackground: true } },
        true: { candidates: ["true"] },
      },
      searchPath: ["/usr/bin", "/bin"],
    }),
  );
  await server.initialize();
  return server;
}

const triggers: [string, (child: ChildProcess) => void][] = [
  ["stdin EOF", (child) => child.stdin!.end()],
  ["SIGTERM", (child) => child.kill("SIGTERM")],
  ["SIGINT", (child) => child.kill("SIGINT")],
  ["SIGHUP", (child) => child.kill("SIGHUP")],
];

describe("shutdown with an execution running", () => {
  for (const [name, trigger] of triggers) {
    it(`${name}: the process group is gone and the server exits 0`, async () => {
      const running = await start();
      const grandchild = await startTreeCall(running, 1, path.join(dir, "pid"));
      trigger(running.child);
      expect(await running.exited).toEqual({ code: 0, signal: null });
      expect(await eventually(() => !isAlive(grandchild), 5_000)).toBe(true);
      expect(running.stderr()).toContain("shutting down");
    });
  }

  it("kills background executions too", async () => {
    const running = await start();
    const sleeper = await startTreeCall(running, 1, path.join(dir, "pid"), { background: true });
    expect((await running.response(1)).result.structuredContent.status).toBe("running");
    running.child.stdin.end();
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(await eventually(() => !isAlive(sleeper), 5_000)).toBe(true);
  });

  it("answers a call made during shutdown with RUNTIME_CLOSING and the running one as cancelled", async () => {
    const running = await start();
    // A tree that ignores SIGTERM keeps shutdown busy until its SIGKILL (SHUTDOWN_KILL_AFTER_MS),
    // so the server is surely still reading stdin when the second call arrives.
    const pidFile = path.join(dir, "pid");
    running.callTool(1, "system_exec", {
      program: "sh",
      args: ["-c", `trap '' TERM; echo $$ > "$0.tmp" && mv "$0.tmp" "$0"; sleep 30`, pidFile],
    });
    expect(await eventually(() => existsSync(pidFile), 20_000)).toBe(true);
    running.child.kill("SIGTERM");
    expect(await eventually(() => running.stderr().includes("shutting down"), 5_000)).toBe(true);
    running.callTool(2, "system_exec", { program: "true" });
    expect(await running.exited).toEqual({ code: 0, signal: null });
    const responses = running.lines.map((line) => JSON.parse(line));
    const second = responses.find((m) => m.id === 2);
    expect(second?.result?.isError).toBe(true);
    expect(second.result.content[0].text).toMatch(/^RUNTIME_CLOSING: /);
    const first = responses.find((m) => m.id === 1);
    expect(first?.result?.structuredContent).toMatchObject({
      status: "completed",
      cancelled: true,
      timedOut: false,
      termination: { reason: "cancelled", forceUsed: true },
    });
  });
});
