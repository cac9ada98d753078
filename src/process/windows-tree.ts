// Windows adapter (designed, unit-tested with stubs): taskkill /T /F as an unconfirmed fallback.
// A Job Object with KILL_ON_JOB_CLOSE needs native bindings that this package does not ship;
// without them every Windows cleanup is reported as unconfirmed, never `treeCleaned: true`.

import { spawnSync } from "node:child_process";
import type { CleanupError } from "./types.js";
import type { ProcessTree } from "./tree.js";

/** Runs a command synchronously and returns its exit status (injected in tests). */
export type CommandRunner = (command: string, args: string[]) => number | null;

const TASKKILL_TIMEOUT_MS = 5_000;

/** The default runner: spawnSync with no shell and a bound on time. */
export const runCommand: CommandRunner = (command, args) =>
  spawnSync(command, args, { windowsHide: true, timeout: TASKKILL_TIMEOUT_MS, stdio: "ignore" })
    .status;

/** Kills the tree rooted at a pid with taskkill; emptiness can never be confirmed this way. */
export class WindowsTaskkillTree implements ProcessTree {
  readonly adapter = "windows-taskkill-fallback" as const;
  readonly unconfirmedError = "TASKKILL_FALLBACK_UNCONFIRMED" as const;
  readonly findsLeftovers = false;
  private rootExited = false;

  constructor(
    private readonly pid: number,
    private readonly run: CommandRunner = runCommand,
  ) {}

  /** Record that the root process has exited (the only fact this adapter can observe). */
  markRootExited(): void {
    this.rootExited = true;
  }

  requestGraceful(): CleanupError | undefined {
    // Windows has no SIGTERM for console trees; the graceful step is a plain taskkill /T.
    return this.taskkill(["/PID", String(this.pid), "/T"]);
  }

  force(): CleanupError | undefined {
    return this.taskkill(["/PID", String(this.pid), "/T", "/F"]);
  }

  async isEmpty(): Promise<boolean> {
    // Without a job object the descendants cannot be enumerated: never confirm emptiness.
    return false;
  }

  /** Whether the root itself is gone (used to stop waiting once force was sent). */
  get rootGone(): boolean {
    return this.rootExited;
  }

  dispose(): void {}

  private taskkill(args: string[]): CleanupError | undefined {
    const status = this.run("taskkill", args);
    return status === 0 || this.rootExited ? undefined : "SIGNAL_FAILED";
  }
}
