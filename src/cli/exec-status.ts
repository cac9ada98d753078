// The exit status of `exec` (SPEC §13, Revision 3): the program's own, so that
// `exec … npm test && deploy` stops on a failing test.

import os from "node:os";
import type { CanonicalResult } from "../runtime/types.js";

/** Added to a signal's number when the program (or `exec` itself) died by it, as shells do. */
export const EXIT_SIGNAL_BASE = 128;
/** The program ran out of time (as coreutils `timeout` exits). */
export const EXIT_TIMED_OUT = 124;
/** A tool error: nothing ran, or no result could be had (as `timeout` exits on its own failure). */
export const EXIT_TOOL_ERROR = 125;
/** A signal whose number this platform does not know: reported as if it were SIGKILL. */
const UNKNOWN_SIGNAL_NUMBER = 9;

/** 128 + the number of `signal` (a name such as "SIGTERM"). */
export function signalExitStatus(signal: string): number {
  const number = (os.constants.signals as Record<string, number | undefined>)[signal];
  return EXIT_SIGNAL_BASE + (number ?? UNKNOWN_SIGNAL_NUMBER);
}

/**
 * The status for a finished execution. `interrupted` is the signal `exec` itself received (the
 * user's Ctrl-C): it wins, as it would for a shell running the program directly.
 */
export function resultExitStatus(result: CanonicalResult, interrupted?: NodeJS.Signals): number {
  if (interrupted !== undefined) return signalExitStatus(interrupted);
  if (result.timedOut) return EXIT_TIMED_OUT;
  if (result.exitCode !== null) return result.exitCode;
  if (result.signal !== null) return signalExitStatus(result.signal);
  return EXIT_TOOL_ERROR;
}
