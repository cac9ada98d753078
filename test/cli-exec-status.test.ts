// `exec` exits with the program's status (SPEC §13, Revision 3): its exit code, 128 + the signal
// number when it died by a signal, 124 on a timeout, 125 on a tool error (nothing ran), and
// 130/143 when exec itself gets SIGINT/SIGTERM — after terminating the whole tree.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY, errorCode, removeDir, runCli, tempDir } from "./cli-helpers.js";
import { eventually, isAlive } from "./helpers/server.js";

/** How long the test's sleeping processes live at most, if nothing kills them. */
const SLEEPER_LIFETIME_MS = 20_000;

let dir: string;
let env: NodeJS.ProcessEnv;

/** exec in Automatic Discovery Mode with `dir` as the only Root, as a user types it. */
const exec = (args: string[]) => runCli(["exec", "--root", dir, ...args], { env, cwd: dir });

beforeAll(() => {
  dir = tempDir("scm-exec-status-");
  // Artifact store and state of these runs stay inside the test's directory.
  env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(dir, "cache"),
    XDG_STATE_HOME: path.join(dir, "state"),
  };
});
afterAll(() => removeDir(dir));

describe("exec exit status", () => {
  it("is the program's exit code, with the result still printed", () => {
    const run = exec(["node", "-e", "process.exit(3)"]);
    expect(run.status, run.stderr).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", exitCode: 3 });
    expect(exec(["node", "-e", ""]).status).toBe(0);
  });

  it.each([
    ["SIGKILL", 137],
    ["SIGTERM", 143],
    ["SIGSEGV", 139],
  ])("is 128 + the number when the program dies by %s", (signal, status) => {
    const run = exec(["node", "-e", `process.kill(process.pid, "${signal}")`]);
    expect(run.status, run.stderr).toBe(status);
    expect(JSON.parse(run.stdout)).toMatchObject({ exitCode: null, signal });
  });

  it("is 124 when the program timed out", () => {
    const run = exec(["--timeout-ms", "500", "node", "-e", "setTimeout(() => {}, 20000)"]);
    expect(run.status, run.stderr).toBe(124);
    expect(JSON.parse(run.stdout)).toMatchObject({ timedOut: true });
  });

  it("is 125 on a tool error: nothing ran, CODE: message on stderr, stdout empty", () => {
    const unknown = exec(["frobnicator", "--help"]);
    expect(unknown.status).toBe(125);
    expect(errorCode(unknown.stderr)).toBe("PROGRAM_NOT_REGISTERED");
    expect(unknown.stdout).toBe("");
    const outside = exec(["--cwd", "/", "node", "-e", ""]);
    expect(outside.status).toBe(125);
    expect(errorCode(outside.stderr)).toBe("CWD_NOT_ALLOWED");
    const badInput = exec(["--input-file", path.join(dir, "absent"), "node", "-e", ""]);
    expect(badInput.status).toBe(125);
    expect(errorCode(badInput.stderr)).toBe("INVALID_INPUT");
  });

  it("is 125 on a startup error of exec's own configuration", () => {
    const run = runCli(["exec", "--root", path.join(dir, "no-such-root"), "node", "-e", ""], {
      env,
    });
    expect(run.status).toBe(125);
    expect(errorCode(run.stderr)).toBe("ROOT_NOT_DIRECTORY");
  });

  it("stops `exec … && deploy` when the test fails", () => {
    const deployed = path.join(dir, "deployed");
    const script =
      `"${process.execPath}" "${CLI_ENTRY}" exec --root "${dir}" node -e "process.exit(1)" ` +
      `> /dev/null && touch "${deployed}"`;
    const run = spawnSync("bash", ["-c", script], { env, cwd: dir, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(existsSync(deployed)).toBe(false);
  });
});

describe("exec interrupted", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("by %s terminates the program's tree and exits %i", async (signal, status) => {
    const pids = path.join(dir, `pids-${signal}`);
    // The program starts a grandchild, records both pids, then waits; both end on their own
    // after SLEEPER_LIFETIME_MS if nothing terminates them.
    const script =
      `const { spawn } = require("child_process"); const fs = require("fs");` +
      `const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, ${SLEEPER_LIFETIME_MS})"], { stdio: "ignore" });` +
      `fs.writeFileSync(${JSON.stringify(pids)}, process.pid + " " + child.pid);` +
      `setTimeout(() => {}, ${SLEEPER_LIFETIME_MS});`;
    const cli = spawn(process.execPath, [CLI_ENTRY, "exec", "--root", dir, "node", "-e", script], {
      env,
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    cli.stdout.on("data", (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => cli.on("exit", (code) => resolve(code)));
    try {
      expect(await eventually(() => existsSync(pids), 15_000)).toBe(true);
      let tree: number[] = [];
      expect(
        await eventually(() => {
          tree = readFileSync(pids, "utf8").trim().split(" ").map(Number);
          return tree.length === 2 && tree.every((pid) => Number.isInteger(pid) && pid > 1);
        }),
      ).toBe(true);
      expect(tree.every(isAlive)).toBe(true);
      cli.kill(signal);
      expect(await exited).toBe(status);
      expect(tree.some(isAlive)).toBe(false);
      expect(JSON.parse(stdout)).toMatchObject({ cancelled: true });
    } finally {
      if (cli.exitCode === null && cli.signalCode === null) cli.kill("SIGKILL");
    }
  });
});
