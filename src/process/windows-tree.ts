// Windows adapter (designed, unit-tested with stubs): taskkill /T /F as an unconfirmed fallback.
// A Job Object with KILL_ON_JOB_CLOSE needs native bindings that this package does not ship;
// without them every Windows cleanup is reported as unconfirmed, never `treeCleaned: true`.

import { childProcess } from "../child-process.js";
import path from "node:path";
import type { CleanupError } from "./types.js";
import type { ProcessTree } from "./tree.js";

/** Runs a command synchronously and returns its exit status (injected in tests). */
export type CommandRunner = (command: string, args: string[]) => number | null;

const TASKKILL_TIMEOUT_MS = 5_000;

/** Where Windows keeps its own directory when neither SystemRoot nor windir is set. */
export const DEFAULT_SYSTEM_ROOT = "C:\\Windows";

/**
 * The absolute path of taskkill.exe: %SystemRoot%\System32\taskkill.exe. A bare "taskkill" would be
 * looked up on PATH (and, on Windows, in the current directory first), where a program being killed
 * could have planted its own. Without SystemRoot, %windir% (set by Windows as well), and without
 * either, C:\Windows; a relative value is ignored for the same reason as the bare name.
 */
export function taskkillPath(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = [env.SystemRoot, env.windir, DEFAULT_SYSTEM_ROOT];
  const root = candidates.find((value) => value !== undefined && path.win32.isAbsolute(value));
  return path.win32.join(root ?? DEFAULT_SYSTEM_ROOT, "System32", "taskkill.exe");
}

/** The default runner: spawnSync with no shell and a bound on time. */
export const runCommand: CommandRunner = (command, args) =>
  childProcess().spawnSync(command, args, {
    windowsHide: true,
    timeout: TASKKILL_TIMEOUT_MS,
    stdio: "ignore",
  }).status;

/** Kills the tree rooted at a pid with taskkill; emptiness can never be confirmed this way. */
export class WindowsTaskkillTree implements ProcessTree {
  readonly adapter = "windows-taskkill-fallback" as const;
  readonly unconfirmedError = "TASKKILL_FALLBACK_UNCONFIRMED" as const;
  readonly findsLeftovers = false;
  private rootExited = false;

  constructor(
    private readonly pid: number,
    private readonly run: CommandRunner = runCommand,
    private readonly taskkillExe: string = taskkillPath(),
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

  dispose(): void {}

  private taskkill(args: string[]): CleanupError | undefined {
    const status = this.run(this.taskkillExe, args);
    return status === 0 || this.rootExited ? undefined : "SIGNAL_FAILED";
  }
}
