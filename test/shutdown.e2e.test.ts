// Shutdown paths with a running child: stdin EOF, SIGTERM, SIGINT, SIGHUP (SPEC §2, §17).

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRawServer } from "./helpers/raw-server.js";
import {
  eventually,
  FIXTURES,
  isAlive,
  removeDir,
  tempDir,
  writeManifest,
} from "./helpers/server.js";

let dir: string;

beforeEach(() => {
  dir = tempDir();
});

afterEach(() => {
  removeDir(dir);
});

const triggers: [string, (child: import("node:child_process").ChildProcess) => void][] = [
  ["stdin EOF", (child) => child.stdin!.end()],
  ["SIGTERM", (child) => child.kill("SIGTERM")],
  ["SIGINT", (child) => child.kill("SIGINT")],
  ["SIGHUP", (child) => child.kill("SIGHUP")],
];

describe("shutdown with an execution running", () => {
  for (const [name, trigger] of triggers) {
    it(`${name}: the process group is gone and the server exits 0`, async () => {
      const pidFile = path.join(dir, "pid");
      const server = startRawServer([
        "--manifest",
        writeManifest(dir),
        "--root",
        dir,
        "--artifact-dir",
        path.join(dir, "artifacts"),
      ]);
      try {
        await server.initialize();
        server.send({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "system_exec",
            arguments: { program: "sh", args: [path.join(FIXTURES, "pid-then-wait.sh"), pidFile] },
          },
        });
        expect(await eventually(() => existsSync(pidFile), 20_000)).toBe(true);
        const text = readFileSync(pidFile, "utf8").trim();
        expect(text).toMatch(/^\d+$/);
        const grandchild = Number(text);
        expect(grandchild).toBeGreaterThan(1);
        trigger(server.child);
        const exit = await server.exited;
        expect(exit).toEqual({ code: 0, signal: null });
        expect(await eventually(() => !isAlive(grandchild), 5_000)).toBe(true);
        expect(server.stderr()).toContain("shutting down");
      } finally {
        if (server.child.exitCode === null) server.child.kill("SIGKILL");
      }
    });
  }

  it("kills background executions too", async () => {
    const pidFile = path.join(dir, "pid");
    const manifest = writeManifest(dir, {
      version: 2,
      programs: { sh: { candidates: ["/bin/sh"], policy: { allowBackground: true } } },
    });
    const server = startRawServer([
      "--manifest",
      manifest,
      "--root",
      dir,
      "--artifact-dir",
      path.join(dir, "artifacts"),
    ]);
    try {
      await server.initialize();
      server.send({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "system_exec",
          arguments: {
            program: "sh",
            args: [path.join(FIXTURES, "pid-then-wait.sh"), pidFile],
            background: true,
          },
        },
      });
      expect((await server.response(1)).result.structuredContent.status).toBe("running");
      expect(await eventually(() => existsSync(pidFile), 20_000)).toBe(true);
      const text = readFileSync(pidFile, "utf8").trim();
      expect(text).toMatch(/^\d+$/);
      server.child.stdin.end();
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(await eventually(() => !isAlive(Number(text)), 5_000)).toBe(true);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });

  it("answers calls made during shutdown with RUNTIME_CLOSING or not at all", async () => {
    const pidFile = path.join(dir, "pid");
    const server = startRawServer([
      "--manifest",
      writeManifest(dir),
      "--root",
      dir,
      "--artifact-dir",
      path.join(dir, "artifacts"),
    ]);
    try {
      await server.initialize();
      server.send({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "system_exec",
          arguments: { program: "sh", args: [path.join(FIXTURES, "pid-then-wait.sh"), pidFile] },
        },
      });
      expect(await eventually(() => existsSync(pidFile), 20_000)).toBe(true);
      server.child.kill("SIGTERM");
      expect(await eventually(() => server.stderr().includes("shutting down"), 5_000)).toBe(true);
      server.send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "system_exec", arguments: { program: "true" } },
      });
      await server.exited;
      const responses = server.lines.map((line) => JSON.parse(line));
      const second = responses.find((m) => m.id === 2);
      if (second) expect(second.result.content[0].text).toMatch(/^RUNTIME_CLOSING: /);
      const first = responses.find((m) => m.id === 1);
      if (first) expect(first.result.structuredContent.cancelled).toBe(true);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });
});
