// Process-tree lifecycle through the real server: timeouts, cancellation, leftovers in the group,
// concurrency slots (SPEC §6.3–§6.6).

import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPidFile } from "./helpers/raw-server.js";
import {
  configuredArgs,
  errorText,
  eventually,
  FIXTURES,
  isAlive,
  removeDir,
  shareServer,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

const PID_THEN_WAIT = path.join(FIXTURES, "pid-then-wait.sh");

let dir: string;
let server: TestServer;

shareServer(undefined, [], (started, made) => {
  server = started;
  dir = made;
});

describe("timeouts", () => {
  it("kills the whole tree, grandchild included, and reports the timeout", async () => {
    const pidFile = path.join(dir, "timeout.pid");
    const result = await server.exec({
      program: "sh",
      args: [PID_THEN_WAIT, pidFile],
      timeoutMs: 1_000,
    });
    const grandchild = readPidFile(pidFile);
    expect(result.timedOut).toBe(true);
    expect(result.cancelled).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe("SIGTERM");
    expect(result.termination).toMatchObject({
      reason: "timeout",
      gracefulRequested: true,
      forceUsed: false,
      treeCleaned: true,
      diagnostics: { adapter: "unix-process-group" },
    });
    expect(result.stdout.text).toBe(`started ${grandchild}\n`);
    expect(isAlive(grandchild)).toBe(false);
  });

  it("forces a tree that ignores SIGTERM after the grace period", async () => {
    const manifestDir = tempDir();
    const manifest = writeManifest(manifestDir, {
      version: 2,
      programs: {
        sh: {
          candidates: ["/bin/sh"],
          policy: { gracePeriodMs: 300, finalTerminationWaitMs: 2000 },
        },
      },
    });
    const strict = await startServer({
      args: ["--manifest", manifest, "--root", dir, "--artifact-dir", `${manifestDir}/a`],
    });
    try {
      const result = await strict.exec({
        program: "sh",
        args: ["-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"],
        timeoutMs: 500,
      });
      expect(result.timedOut).toBe(true);
      expect(result.signal).toBe("SIGKILL");
      expect(result.termination).toMatchObject({
        reason: "timeout",
        gracefulRequested: true,
        forceUsed: true,
        treeCleaned: true,
      });
    } finally {
      await strict.close();
      removeDir(manifestDir);
    }
  });

  it("returns promptly when the root exits and a background child stays: sleep 30 & echo", async () => {
    const started = Date.now();
    const result = await server.exec({
      program: "sh",
      args: ["-c", "sleep 30 & echo started"],
      timeoutMs: 1_500,
    });
    // The §6.3 bound: timeoutMs + gracePeriodMs + finalTerminationWaitMs + 1 s.
    expect(Date.now() - started).toBeLessThan(1_500 + 2_000 + 5_000 + 1_000);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.text).toBe("started\n");
    expect(result.timedOut).toBe(false);
    expect(result.termination).toMatchObject({
      reason: null,
      gracefulRequested: true,
      treeCleaned: true,
      diagnostics: { adapter: "unix-process-group" },
    });
  });

  it("returns in well under a second for (sleep 0.2 &); echo started", async () => {
    const result = await server.exec({
      program: "sh",
      args: ["-c", "(sleep 0.2 &); echo started"],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.text).toBe("started\n");
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it("closes pipes held by a descendant that left the group, and says so", async () => {
    // setsid-like escape: a node grandchild in its own group keeps stdout open.
    const script = [
      "const { spawn } = require('node:child_process');",
      "const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'],",
      "  { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });",
      "console.log('escaped ' + c.pid); c.unref();",
    ].join("\n");
    const result = await server.exec({ program: "node", args: ["-e", script], timeoutMs: 20_000 });
    const escaped = Number(/escaped (\d+)/.exec(result.stdout.text)?.[1]);
    try {
      expect(result.exitCode).toBe(0);
      expect(result.timedOut).toBe(false);
      expect(result.termination.treeCleaned).toBe(false);
      expect(result.termination.cleanupError).toBe("PIPES_HELD_OPEN");
      expect(result.durationMs).toBeLessThan(20_000);
    } finally {
      if (Number.isInteger(escaped) && escaped > 1) process.kill(escaped, "SIGKILL");
    }
  });
});

describe("cancellation", () => {
  it("kills the tree when the client cancels the call", async () => {
    const pidFile = path.join(dir, "cancel.pid");
    const abort = new AbortController();
    const call = server.client
      .callTool(
        { name: "system_exec", arguments: { program: "sh", args: [PID_THEN_WAIT, pidFile] } },
        undefined,
        { signal: abort.signal, timeout: 60_000 },
      )
      .catch((error: unknown) => error);
    expect(await eventually(() => existsSync(pidFile), 20_000)).toBe(true);
    const grandchild = readPidFile(pidFile);
    expect(isAlive(grandchild)).toBe(true);
    abort.abort("test cancels");
    await call;
    expect(await eventually(() => !isAlive(grandchild), 10_000)).toBe(true);
  });
});

describe("concurrency", () => {
  it("rejects at once past the limit and recovers when a slot frees", async () => {
    // A server of its own: slots of earlier tests' cancelled calls are released asynchronously.
    const local = tempDir();
    const limited = await startServer({
      args: configuredArgs(local, undefined, ["--max-concurrent-executions", "2"]),
    });
    try {
      const pidFiles = [path.join(local, "c1.pid"), path.join(local, "c2.pid")];
      const running = pidFiles.map((file) =>
        limited.call("system_exec", {
          program: "sh",
          args: [PID_THEN_WAIT, file, "2"],
          timeoutMs: 20_000,
        }),
      );
      for (const file of pidFiles) {
        expect(await eventually(() => existsSync(file), 20_000)).toBe(true);
      }
      const rejected = await limited.call("system_exec", { program: "true" });
      expect(rejected.isError).toBe(true);
      expect(errorText(rejected)).toMatch(/^CONCURRENCY_LIMIT: /);
      for (const result of await Promise.all(running)) expect(result.isError).toBe(false);
      const after = await limited.exec({ program: "true" });
      expect(after.exitCode).toBe(0);
    } finally {
      await limited.close();
      removeDir(local);
    }
  });
});
