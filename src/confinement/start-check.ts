// The confined start in the authorised directory (SPEC §20.1 item 7). bubblewrap enters its
// `--chdir` by path inside the new mount namespace, so the path may lead elsewhere by then. The
// server passes the pinned directory (roots/cwd-pin.ts) as fd 9, and the sandbox's command is one
// constant script that compares the two and only then runs the program:
//
//   /bin/sh -c '<START_SCRIPT>' sh PROGRAM ARGS…
//
// The request's data are positional parameters only, never part of the script's text (the one
// shell §17 allows). fd 9 and the status fd are closed before the program runs: a directory fd
// from the host's mount namespace would reach past `--ro-bind / /`. The script writes one byte to
// the status pipe after the check and before `exec`, which tells its own refusal (exit 125, no
// byte) apart from a program that exits 125 itself.

import type { Readable } from "node:stream";

/** The fd the pinned directory has inside the sandbox (§20.1 item 7). */
export const CWD_FD = 9;

/** The pipe the script writes START_CONFIRMED to once the directory matched. */
export const START_STATUS_FD = 4;

/** The exit status of the script when the directory is not the pinned one. */
export const CWD_MISMATCH_EXIT = 125;

/** The shell that runs the script: a fixed absolute path, never looked up. */
export const START_SHELL = "/bin/sh";

/** `$0` of the script. */
const SCRIPT_NAME = "sh";

/** The constant pre-exec script; it never holds request data. */
export const START_SCRIPT =
  `[ . -ef /proc/self/fd/${CWD_FD} ] || exit ${CWD_MISMATCH_EXIT}; exec ${CWD_FD}<&-; ` +
  `printf 1 >&${START_STATUS_FD}; exec ${START_STATUS_FD}>&-; exec "$@"`;

/** The sandbox's command line: the script, then the program and its args as `$@`. */
export function startCommand(command: string, args: readonly string[]): string[] {
  return [START_SHELL, "-c", START_SCRIPT, SCRIPT_NAME, command, ...args];
}

/**
 * Resolves true once the script confirmed the directory (a byte on the status pipe), false when
 * the pipe ends without one (the script refused, or bubblewrap failed before running it).
 */
export function readStartStatus(stream: Readable): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (confirmed: boolean) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("close", onEnd);
      stream.off("error", onEnd);
      stream.destroy();
      resolve(confirmed);
    };
    const onData = () => done(true);
    const onEnd = () => done(false);
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("close", onEnd);
    stream.once("error", onEnd);
  });
}
