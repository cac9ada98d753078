// The confined start script (SPEC §20.1 item 7) run by the real bubblewrap with the argv the
// server builds: it refuses to run the program when the directory bubblewrap entered is not the
// pinned one (fd 9), and its status pipe tells that refusal apart from a program's own exit 125.

import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bwrapArgs } from "../src/confinement/bwrap-args.js";
import {
  CWD_FD,
  CWD_MISMATCH_EXIT,
  START_SCRIPT,
  START_SHELL,
  START_STATUS_FD,
} from "../src/confinement/start-check.js";
import type { ConfinedCommand } from "../src/confinement/types.js";
import { removeDir, startServer, tempDir, writeManifest } from "./helpers/server.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";

const BWRAP = "/usr/bin/bwrap";

let dir: string;
let authorised: string;
let elsewhere: string;

beforeAll(() => {
  dir = tempDir("scm-start-check-");
  authorised = path.join(dir, "authorised");
  elsewhere = path.join(dir, "elsewhere");
  mkdirSync(authorised);
  mkdirSync(elsewhere);
  mkdirSync(path.join(dir, "tmp"));
  mkdirSync(path.join(dir, "empty"));
});

afterAll(() => removeDir(dir));

function command(cwd: string, program: string, args: string[]): ConfinedCommand {
  return {
    policy: {
      filesystem: "read-only",
      writablePaths: [],
      hiddenPaths: [],
      protectedPaths: [],
      network: "allow",
    },
    roots: [dir],
    cwd,
    tmpDir: path.join(dir, "tmp"),
    emptyDir: path.join(dir, "empty"),
    hidden: [],
    protectedMounts: [],
    pinned: [],
    command: program,
    args,
    startCheck: true,
  };
}

/** Runs bwrap with `pinned` at fd 9; returns its exit code, stdout and the status pipe's bytes. */
function run(
  cwd: string,
  pinned: string,
  program: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
) {
  const fd = openSync(pinned, "r");
  const stdio: ("ignore" | "pipe" | number)[] = ["ignore", "pipe", "pipe"];
  for (let slot = 3; slot <= CWD_FD; slot++) {
    stdio.push(slot === START_STATUS_FD ? "pipe" : slot === CWD_FD ? fd : "ignore");
  }
  const child = spawn(BWRAP, bwrapArgs(command(cwd, program, args), null), { stdio, env });
  closeSync(fd);
  let stdout = "";
  let status = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  (child.stdio[START_STATUS_FD] as NodeJS.ReadableStream).on(
    "data",
    (chunk: Buffer) => (status += chunk.toString()),
  );
  return new Promise<{ code: number | null; stdout: string; status: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout, status })),
  );
}

describe.runIf(process.platform === "linux")("the constant start script", () => {
  beforeAll(() => requireBwrapInCi());

  it("is the sandbox's command, with the request's data only as positional parameters", () => {
    const argv = bwrapArgs(command(authorised, "/bin/echo", ["$(id)", "; exit 0"]), null);
    const tail = argv.slice(argv.indexOf("--"));
    expect(tail).toEqual([
      "--",
      START_SHELL,
      "-c",
      START_SCRIPT,
      "sh",
      "/bin/echo",
      "$(id)",
      "; exit 0",
    ]);
    expect(argv.slice(argv.indexOf("--chdir"), argv.indexOf("--chdir") + 2)).toEqual([
      "--chdir",
      authorised,
    ]);
  });

  it("refuses with exit 125 and no status byte when the entered directory is not fd 9", async () => {
    const outcome = await run(authorised, elsewhere, "/bin/echo", ["ran"]);
    expect(outcome).toEqual({ code: CWD_MISMATCH_EXIT, stdout: "", status: "" });
  });

  it("runs the program when it is, after one status byte; the program's own 125 stays its", async () => {
    const outcome = await run(authorised, authorised, "/bin/sh", ["-c", "pwd; exit 125"]);
    expect(outcome).toEqual({ code: 125, stdout: `${authorised}\n`, status: "1" });
  });

  it("adds nothing to the program's environment (bwrap's PWD stays the only addition)", async () => {
    const env = { A: "1", PATH: "/usr/bin:/bin" };
    const plain = spawnSync(
      BWRAP,
      bwrapArgs({ ...command(authorised, "/usr/bin/env", []), startCheck: false }, null),
      {
        env,
        encoding: "utf8",
      },
    );
    const checked = await run(authorised, authorised, "/usr/bin/env", [], env);
    expect(checked.code).toBe(0);
    expect(checked.stdout.split("\n").sort()).toEqual(plain.stdout.split("\n").sort());
    expect(checked.stdout).toContain(`PWD=${authorised}`);
  });

  it("leaves the program neither fd 9 nor the status fd", async () => {
    const outcome = await run(authorised, authorised, "/bin/sh", ["-c", "ls -l /proc/$$/fd"]);
    expect(outcome.code).toBe(0);
    const fds = new Map(
      [...outcome.stdout.matchAll(/ (\d+) -> (.*)$/gm)].map((m) => [Number(m[1]), m[2]!]),
    );
    expect([...fds.keys()]).toEqual(expect.arrayContaining([0, 1, 2]));
    expect(fds.has(CWD_FD)).toBe(false);
    expect(fds.has(START_STATUS_FD)).toBe(false);
    expect([...fds.values()]).not.toContain(authorised);
  });
});

describe.runIf(process.platform === "linux")("through the real server", () => {
  beforeAll(() => requireBwrapInCi());

  it("a confined program's own exit 125 is its result, and it holds no fd 9", async () => {
    const manifest = writeManifest(dir, {
      version: 2,
      programs: { shc: { candidates: ["/bin/sh"], sandbox: { filesystem: "read-only" } } },
    });
    const server = await startServer({
      args: ["--manifest", manifest, "--root", authorised, "--artifact-dir", path.join(dir, "a")],
    });
    try {
      const own = await server.exec({ program: "shc", args: ["-c", "pwd -P; exit 125"] });
      expect(own.exitCode).toBe(125);
      expect(own.stdout.text).toBe(`${authorised}\n`);
      const listed = await server.exec({ program: "shc", args: ["-c", "ls /proc/$$/fd"] });
      const fds = listed.stdout.text.trim().split("\n").map(Number);
      expect(fds).toEqual(expect.arrayContaining([0, 1, 2]));
      expect(fds).not.toContain(CWD_FD);
      expect(fds).not.toContain(START_STATUS_FD);
    } finally {
      await server.close();
    }
  });
});
