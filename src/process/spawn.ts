// Starts one program with no shell, in its own process group on POSIX (SPEC §6.1, §3.1).

import type { ChildProcess } from "node:child_process";
import { childProcess } from "../child-process.js";
import { CommandError, errnoCode } from "../errors.js";

export interface LaunchSpec {
  /** The path the program was found at (not its real path: a venv's python needs its own name). */
  command: string;
  args: string[];
  cwd: string;
  /** Where the child chdirs when it differs from `cwd` (a pinned directory, roots/cwd-pin.ts). */
  spawnCwd?: string;
  /** The pinned cwd's open descriptor (Linux), which confinement hands into the sandbox. */
  cwdFd?: number;
  env: Record<string, string>;
  /** Whether stdin is a pipe the runtime writes `input` to; otherwise it is /dev/null. */
  stdinPipe: boolean;
  platform?: NodeJS.Platform;
  /**
   * What the child gets at fd 3, 4, …: a new pipe, nothing ("ignore": the fd stays closed) or a
   * descriptor of ours duplicated into that slot — bwrap's info and status pipes and the pinned
   * cwd (§20, §20.1 item 7).
   */
  extraStdio?: readonly ("pipe" | "ignore" | number)[];
}

/** A started child: its stdio are pipes (stdin only when requested). */
export type StartedChild = ChildProcess & {
  pid: number;
  stdout: NonNullable<ChildProcess["stdout"]>;
  stderr: NonNullable<ChildProcess["stderr"]>;
};

/** Spawns and resolves once the OS started the process; a failure is SPAWN_FAILED with the errno. */
export async function launch(spec: LaunchSpec): Promise<StartedChild> {
  const windows = (spec.platform ?? process.platform) === "win32";
  // cross-spawn (PATHEXT, .cmd shims) is only needed, and only loaded, on Windows.
  const spawnImpl = windows ? (await import("cross-spawn")).default : childProcess().spawn;
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnImpl(spec.command, spec.args, {
        cwd: spec.spawnCwd ?? spec.cwd,
        env: spec.env,
        stdio: [spec.stdinPipe ? "pipe" : "ignore", "pipe", "pipe", ...(spec.extraStdio ?? [])],
        detached: !windows,
        shell: false,
        windowsHide: true,
      });
    } catch (error) {
      reject(spawnFailed(spec.command, error));
      return;
    }
    const onError = (error: Error) => {
      child.off("spawn", onSpawn);
      reject(spawnFailed(spec.command, error));
    };
    const onSpawn = () => {
      child.off("error", onError);
      child.on("error", () => {}); // later errors (e.g. signalling a reaped child) are not fatal
      resolve(child as StartedChild);
    };
    child.once("error", onError);
    child.once("spawn", onSpawn);
  });
}

function spawnFailed(command: string, error: unknown): CommandError {
  const code = errnoCode(error);
  return new CommandError(
    "SPAWN_FAILED",
    `could not start ${command} (${code}); check that the program exists, is executable and ` +
      `that the working directory is accessible`,
  );
}
