// Compact results (docs/results.md "Compact results") through the real server and the SDK client:
// each field is there exactly when it says something, `detail: "full"` and `--result-detail full`
// give the whole result in its key order, and bad values are coded errors. The SDK client checks
// every structuredContent against the served output schema; helpers/server.ts checks it against
// the full one too.

import { writeFileSync } from "node:fs";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, runCli } from "./cli-helpers.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";
import {
  configuredArgs,
  defaultManifest,
  errorText,
  removeDir,
  startServer,
  tempDir,
  type TestServer,
} from "./helpers/server.js";

/** The whole Canonical Result's keys, in the key order (docs/results.md). */
const FULL_KEYS = [
  "status",
  "executionId",
  "exitCode",
  "signal",
  "timedOut",
  "cancelled",
  "durationMs",
  "cwd",
  "artifact",
  "programSelection",
  "termination",
  "inputBytes",
  "stdout",
  "stderr",
];
const FULL_STREAM_KEYS = ["truncated", "totalBytes", "omittedBytes", "lossyUtf8", "text"];

const manifest = defaultManifest({
  bgnode: { candidates: [process.execPath], policy: { allowBackground: true } },
});

let compact: TestServer;
let full: TestServer;
let dir: string;
let fullDir: string;

beforeAll(async () => {
  dir = tempDir();
  fullDir = tempDir();
  compact = await startServer({
    args: configuredArgs(dir, manifest, ["--result-detail", "compact"]),
  });
  full = await startServer({ args: configuredArgs(fullDir, manifest) });
});

afterAll(async () => {
  await compact?.close();
  await full?.close();
  removeDir(dir);
  removeDir(fullDir);
});

async function call(server: TestServer, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await server.call("system_exec", args);
  expect(result.isError, errorText(result)).toBe(false);
  // Both views carry the same object.
  const text = (result.content[0] as { text: string }).text;
  expect(text).toBe(JSON.stringify(result.structuredContent));
  return result;
}

const structured = (result: CallToolResult) => result.structuredContent as Record<string, any>;

describe("a compact system_exec result", () => {
  it("of a trivial call with its cwd named is status, exitCode, durationMs and the text", async () => {
    const result = await call(compact, {
      program: "node",
      args: ["-e", "process.stdout.write('?? a\\n')"],
      cwd: dir,
    });
    const value = structured(result);
    expect(Object.keys(value)).toEqual(["status", "exitCode", "durationMs", "stdout"]);
    expect(value).toMatchObject({ status: "completed", exitCode: 0, stdout: { text: "?? a\n" } });
    expect(Number.isInteger(value.durationMs)).toBe(true);
    // docs/results.md: ≤ 100 characters in both views for a trivial call.
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(100);
  });

  it("keeps cwd when the request did not name it", async () => {
    const value = structured(await call(compact, { program: "true" }));
    expect(value).toEqual({
      status: "completed",
      exitCode: 0,
      durationMs: value.durationMs,
      cwd: dir,
    });
  });

  it("shows a nonzero exit and only the stream that has bytes", async () => {
    const value = structured(
      await call(compact, {
        program: "node",
        args: ["-e", "process.stderr.write('boom'); process.exit(3)"],
        cwd: dir,
      }),
    );
    expect(Object.keys(value)).toEqual(["status", "exitCode", "durationMs", "stderr"]);
    expect(value.exitCode).toBe(3);
    expect(value.stderr).toEqual({ text: "boom" });
  });

  it("shows a signal, with exitCode null", async () => {
    const value = structured(
      await call(compact, {
        program: "node",
        args: ["-e", "process.kill(process.pid, 'SIGKILL')"],
        cwd: dir,
      }),
    );
    expect(value.signal).toBe("SIGKILL");
    expect(value.exitCode).toBeNull();
    expect(value).not.toHaveProperty("timedOut");
    expect(value).not.toHaveProperty("termination");
  });

  it("shows a timeout with timedOut and the termination that ended it", async () => {
    const value = structured(
      await call(compact, {
        program: "node",
        args: ["-e", "setInterval(() => {}, 1000)"],
        cwd: dir,
        timeoutMs: 300,
      }),
    );
    expect(value.timedOut).toBe(true);
    expect(value).not.toHaveProperty("cancelled");
    expect(value.termination).toMatchObject({ reason: "timeout", gracefulRequested: true });
  });

  it("keeps every counter of a truncated stream, its artifact and the executionId", async () => {
    const value = structured(
      await call(compact, {
        program: "node",
        args: ["-e", "process.stdout.write('x'.repeat(200000))"],
        cwd: dir,
      }),
    );
    expect(value.executionId).toMatch(/^[0-9a-f]{32}$/);
    expect(value.artifact).toMatchObject({ status: "published" });
    expect(Object.keys(value.stdout)).toEqual([
      "truncated",
      "totalBytes",
      "omittedBytes",
      "omittedFrom",
      "lossyUtf8",
      "text",
    ]);
    expect(value.stdout).toMatchObject({ truncated: true, totalBytes: 200000 });
    // A compact page: no encoding "utf8", no lossyUtf8 false.
    const page = await compact.call("system_output", {
      id: value.artifact.id,
      stream: "stdout",
      offset: value.stdout.omittedFrom,
      limit: 10,
    });
    expect(page.isError, errorText(page)).toBe(false);
    expect(page.structuredContent).toEqual({
      offset: value.stdout.omittedFrom,
      bytes: 10,
      nextOffset: value.stdout.omittedFrom + 10,
      eof: false,
      text: "xxxxxxxxxx",
    });
    const base64 = await compact.call("system_output", {
      id: value.artifact.id,
      stream: "stdout",
      offset: 0,
      limit: 3,
      encoding: "base64",
    });
    expect((base64.structuredContent as Record<string, unknown>).encoding).toBe("base64");
  });

  it("keeps the counters of a stream that is not valid UTF-8", async () => {
    const value = structured(
      await call(compact, {
        program: "node",
        args: ["-e", "process.stdout.write(Buffer.from([0x61, 0xff, 0x62]))"],
        cwd: dir,
      }),
    );
    expect(Object.keys(value.stdout)).toEqual(FULL_STREAM_KEYS);
    expect(value.stdout).toMatchObject({ lossyUtf8: true, totalBytes: 3, truncated: false });
  });

  it("shows inputBytes only when there was input", async () => {
    const value = structured(await call(compact, { program: "cat", input: "hello", cwd: dir }));
    expect(value.inputBytes).toBe(5);
    expect(value.stdout).toEqual({ text: "hello" });
  });

  it("of a running snapshot keeps the handle and leaves out programSelection", async () => {
    const running = structured(
      await call(compact, {
        program: "bgnode",
        args: ["-e", "console.log('ready'); setInterval(() => {}, 1000)"],
        background: true,
      }),
    );
    expect(running.status).toBe("running");
    expect(running.executionId).toMatch(/^[0-9a-f]{32}$/);
    expect(running).toHaveProperty("elapsedMs");
    expect(running).toHaveProperty("timeoutMs");
    expect(running.cwd).toBe(dir);
    expect(running).not.toHaveProperty("programSelection");
    const waited = await compact.call("system_wait", {
      executionId: running.executionId,
      until: { pattern: "ready" },
    });
    expect(waited.isError, errorText(waited)).toBe(false);
    const snapshot = structured(waited);
    expect(snapshot.match).toMatchObject({ stream: "stdout", text: "ready" });
    expect(snapshot).not.toHaveProperty("stderr");
    const cancelled = await compact.call("system_cancel", { executionId: running.executionId });
    const end = structured(cancelled);
    expect(end.cancelled).toBe(true);
    expect(end.termination).toMatchObject({ reason: "cancelled" });
    expect(end).not.toHaveProperty("programSelection");
  });
});

describe.runIf(requireBwrapInCi())("a compact confined result", () => {
  it("keeps programSelection as { sandbox } only", async () => {
    const own = tempDir();
    const confined = {
      version: 2,
      searchPath: ["/usr/bin", "/bin"],
      programs: {
        sh: {
          candidates: ["/bin/sh"],
          sandbox: { filesystem: "workspace-write", network: "deny" },
        },
      },
    };
    const server = await startServer({
      args: configuredArgs(own, confined, ["--result-detail", "compact"]),
    });
    try {
      const value = structured(
        await call(server, { program: "sh", args: ["-c", "echo hi"], cwd: own }),
      );
      expect(value).toEqual({
        status: "completed",
        exitCode: 0,
        durationMs: value.durationMs,
        programSelection: {
          sandbox: { adapter: "bubblewrap", filesystem: "workspace-write", network: "deny" },
        },
        stdout: { text: "hi\n" },
      });
    } finally {
      await server.close();
      removeDir(own);
    }
  });
});

describe("the full form", () => {
  it("is the whole result in its key order with detail: full", async () => {
    const value = structured(await call(compact, { program: "true", detail: "full", cwd: dir }));
    expect(Object.keys(value)).toEqual(FULL_KEYS);
    expect(Object.keys(value.stdout)).toEqual(FULL_STREAM_KEYS);
    expect(value).toMatchObject({
      signal: null,
      timedOut: false,
      cancelled: false,
      artifact: { status: "discarded" },
      inputBytes: 0,
      termination: { reason: null, diagnostics: { adapter: "natural" } },
      stderr: { truncated: false, totalBytes: 0, omittedBytes: 0, lossyUtf8: false, text: "" },
    });
  });

  it("is every result of a server started with --result-detail full, unless a call asks for compact", async () => {
    const value = structured(await call(full, { program: "true", cwd: fullDir }));
    expect(Object.keys(value)).toEqual(FULL_KEYS);
    const asked = structured(
      await call(full, { program: "true", cwd: fullDir, detail: "compact" }),
    );
    expect(Object.keys(asked)).toEqual(["status", "exitCode", "durationMs"]);
  });

  it("follows the manifest's resultDetail when the command line does not say", async () => {
    const own = tempDir();
    const fullManifest = { ...(manifest as object), resultDetail: "full" };
    const server = await startServer({ args: configuredArgs(own, fullManifest), asGiven: true });
    try {
      const value = structured(await call(server, { program: "true", cwd: own }));
      expect(Object.keys(value)).toEqual(FULL_KEYS);
    } finally {
      await server.close();
    }
    const flagged = await startServer({
      args: configuredArgs(own, fullManifest, ["--result-detail", "compact"]),
    });
    try {
      const value = structured(await call(flagged, { program: "true", cwd: own }));
      expect(Object.keys(value)).toEqual(["status", "exitCode", "durationMs"]);
    } finally {
      await flagged.close();
      removeDir(own);
    }
  });

  it("is compact by default: no flag, no manifest setting", async () => {
    const own = tempDir();
    const server = await startServer({ args: configuredArgs(own, manifest), asGiven: true });
    try {
      const value = structured(await call(server, { program: "true", cwd: own }));
      expect(Object.keys(value)).toEqual(["status", "exitCode", "durationMs"]);
    } finally {
      await server.close();
      removeDir(own);
    }
  });
});

describe("bad input", () => {
  it("a detail other than compact or full is INVALID_REQUEST naming the field", async () => {
    const result = await compact.call("system_exec", { program: "true", detail: "short" });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toMatch(/^INVALID_REQUEST: .*detail/);
  });

  it("an unknown --result-detail is INVALID_OPTION and nothing starts", () => {
    const own = tempDir();
    try {
      writeFileSync(path.join(own, "x"), "");
      const run = runCli(["serve", "--root", own, "--result-detail", "tiny"]);
      expect(run.status).not.toBe(0);
      expect(errorCode(run.stderr)).toBe("INVALID_OPTION");
    } finally {
      removeDir(own);
    }
  });

  it("a manifest resultDetail other than the two is INVALID_MANIFEST with its path", () => {
    const own = tempDir();
    try {
      const args = configuredArgs(own, { ...(manifest as object), resultDetail: "brief" });
      const run = runCli(["doctor", ...args.slice(0, 4)]);
      expect(run.status).not.toBe(0);
      expect(run.stderr + run.stdout).toMatch(/INVALID_MANIFEST/);
      expect(run.stderr + run.stdout).toMatch(/resultDetail/);
    } finally {
      removeDir(own);
    }
  });
});

describe("tools/list", () => {
  it("is at most 8 KiB and declares status as the only required result field", async () => {
    const listed = await compact.client.listTools();
    expect(JSON.stringify(listed).length).toBeLessThanOrEqual(8192);
    for (const name of ["system_exec", "system_wait", "system_cancel"]) {
      const tool = listed.tools.find((t) => t.name === name)!;
      expect(tool.outputSchema!.required).toEqual(["status"]);
      expect(Object.keys(tool.outputSchema!.properties!)).toEqual(
        expect.arrayContaining([...FULL_KEYS, "elapsedMs", "timeoutMs", "match"]),
      );
      if (name !== "system_cancel") {
        expect(Object.keys(tool.inputSchema.properties!)).toContain("detail");
      }
    }
  });
});
