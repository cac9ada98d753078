// Protocol versions, the stdout-EPIPE shutdown path and the broad-cwd warning (SPEC §2, §3.2).

import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startRawServer, startTreeCall } from "./helpers/raw-server.js";
import {
  baseEnv,
  eventually,
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

function args() {
  return ["--manifest", writeManifest(dir), "--root", dir, "--artifact-dir", path.join(dir, "a")];
}

describe("protocol versions", () => {
  for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
    it(`negotiates ${version} and serves tools`, async () => {
      const server = startRawServer(args());
      try {
        server.send({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: version,
            capabilities: {},
            clientInfo: { name: "v", version: "0" },
          },
        });
        const init = await server.response(0);
        expect(init.result.protocolVersion).toBe(version);
        expect(init.result.serverInfo.name).toBe("system-command-mcp");
        expect(init.result.capabilities).toEqual({ tools: {} });
        expect(init.result.instructions.split("\n")).toHaveLength(3);
        server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
        server.callTool(1, "system_exec", { program: "true" });
        expect((await server.response(1)).result.structuredContent.exitCode).toBe(0);
      } finally {
        server.child.stdin.end();
        await server.exited;
      }
    });
  }
});

describe("shutdown on EPIPE", () => {
  it("kills running trees and exits 0 when stdout's reader goes away", async () => {
    const pidFile = path.join(dir, "pid");
    const server = startRawServer(args());
    try {
      await server.initialize();
      const grandchild = await startTreeCall(server, 1, pidFile);
      server.child.stdout.destroy();
      // The next response the server writes meets a closed pipe.
      for (let id = 2; id < 6; id++) server.send({ jsonrpc: "2.0", id, method: "tools/list" });
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(await eventually(() => !isAlive(grandchild), 5_000)).toBe(true);
      expect(server.stderr()).toMatch(/shutting down \(stdout closed\)/);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });
});

describe("automatic mode without --root", () => {
  it("warns on stderr when the working directory is the home directory", async () => {
    const { spawn } = await import("node:child_process");
    const { CLI_ENTRY } = await import("./helpers/server.js");
    const child = spawn(
      process.execPath,
      [CLI_ENTRY, "serve", "--artifact-dir", path.join(dir, "a")],
      { cwd: os.homedir(), env: baseEnv(), stdio: ["pipe", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      expect(await eventually(() => stderr.includes("ready"), 20_000)).toBe(true);
      expect(stderr).toMatch(/warning: no --root given/);
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
