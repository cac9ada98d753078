// Turns an unconfined launch into a confined one (SPEC §20): the launch-plan step the runtime runs
// right before spawning. The program stays the program (`executable` reports it); only the spawn
// goes through the adapter, with literal args after `--` and never a shell.

import type { Readable } from "node:stream";
import type { LaunchSpec, StartedChild } from "../process/spawn.js";
import { PosixProcessGroup } from "../process/posix-group.js";
import type { ProcessTree } from "../process/tree.js";
import { bwrapArgs } from "./bwrap-args.js";
import { BWRAP_INFO_FD, CONFINED_TMPDIR, RUN_DIR, TMP_DIR } from "./constants.js";
import { scanGitDirectories } from "./git-scan.js";
import { findHiddenMounts, findProtectedMounts } from "./mounts.js";
import { ProtectionSet } from "./protection.js";
import { writablePlaces, type ServerFiles } from "./server-files.js";
import { NamespaceProcessGroup } from "./namespace-tree.js";
import { sandboxExecArgs } from "./seatbelt.js";
import { CWD_FD, readStartStatus, START_STATUS_FD } from "./start-check.js";
import { ExecutionTemps } from "./temp-area.js";
import { isWithin } from "./within-path.js";
import type { ConfinedCommand, SandboxAdapterInfo, SandboxPolicy } from "./types.js";

/** A launch wrapped by the adapter, with what the execution must do differently. */
export interface ConfinedLaunch {
  launch: LaunchSpec;
  /** The process-tree adapter of the started child (namespace-aware on Linux). */
  tree(child: StartedChild): ProcessTree;
  /**
   * Resolves true once the sandbox confirmed that the program starts in the pinned directory,
   * false when it ended without running the program (§20.1 item 7). Absent: nothing to confirm.
   */
  confirmStart?(child: StartedChild): Promise<boolean>;
  /** Removes the execution's private temp directory; call once the execution has ended. */
  dispose(): Promise<void>;
}

/** What the launcher needs from startup. */
export interface LauncherOptions {
  adapter: SandboxAdapterInfo;
  /** The per-user temp area (temp-area.ts). */
  tempArea: string;
  /** The server's own files: the manifest (read-only) and the always hidden paths. */
  serverFiles: ServerFiles;
  /** The user's home (`~/` in git config values) and global git config files. */
  home: string;
  globalGitConfigs: string[];
}

/** The last standard fd; slots past it are extra. */
const STDERR_FD = 2;

/**
 * The child's fds past stderr: bwrap's info pipe, the start script's status pipe, and the pinned
 * cwd at CWD_FD (the slots between stay closed). Without a pinned cwd, the info pipe alone.
 */
function bwrapStdio(cwdFd: number | undefined): ("pipe" | "ignore" | number)[] {
  const slots: ("pipe" | "ignore" | number)[] = [];
  const last = cwdFd === undefined ? BWRAP_INFO_FD : CWD_FD;
  for (let fd = STDERR_FD + 1; fd <= last; fd++) {
    if (fd === BWRAP_INFO_FD || (cwdFd !== undefined && fd === START_STATUS_FD)) slots.push("pipe");
    else if (fd === CWD_FD) slots.push(cwdFd!);
    else slots.push("ignore");
  }
  return slots;
}

/** Sets TMPDIR (reusing the existing key's spelling) on a copy of the environment. */
function withTmpdir(env: Record<string, string>, value: string): Record<string, string> {
  const key = Object.keys(env).find((name) => name.toUpperCase() === "TMPDIR") ?? "TMPDIR";
  return { ...env, [key]: value };
}

/** The confinement stage as the runtime uses it. */
export class Launcher {
  private readonly temps: ExecutionTemps;

  constructor(private readonly options: LauncherOptions) {
    this.temps = new ExecutionTemps(options.tempArea);
  }

  /** Removes the temp directories of executions that have not been disposed (server shutdown). */
  close(): void {
    this.temps.close();
  }

  /** The adapter in use (system_environment.sandbox). */
  get adapter(): SandboxAdapterInfo {
    return this.options.adapter;
  }

  /**
   * What an execution mounts beyond the mode's binds (§20.1): hidden paths (the policy's and the
   * server's, in every mode), the manifest, protected paths and git files read-only, and the
   * directories down to each of them inside a writable place pinned.
   */
  private mountsFor(
    policy: SandboxPolicy,
    roots: string[],
  ): Pick<ConfinedCommand, "hidden" | "pinned" | "protectedMounts"> {
    const { serverFiles } = this.options;
    const full = policy.filesystem === "full";
    const covered = [...(full ? [] : [TMP_DIR]), ...(policy.network === "deny" ? [RUN_DIR] : [])];
    const bound = full ? [] : [...roots, ...policy.writablePaths];
    const visible = (target: string) =>
      !covered.some((place) => isWithin(target, place)) ||
      bound.some((place) => isWithin(target, place));
    const protection = new ProtectionSet(writablePlaces(policy, roots), visible);
    const serverHidden = [...serverFiles.hidden, this.options.tempArea];
    const hidden = findHiddenMounts([...policy.hiddenPaths, ...serverHidden], covered, bound);
    const server = new Set(findHiddenMounts(serverHidden, covered, bound).map((h) => h.path));
    for (const mount of hidden) if (server.has(mount.path)) protection.pinParentsOf(mount.path);
    for (const file of serverFiles.readOnly) protection.keepReadOnlyIfExists(file);
    for (const kept of findProtectedMounts(policy, roots)) protection.keepReadOnly(kept);
    if (policy.filesystem === "workspace-write") {
      scanGitDirectories(protection, {
        roots,
        home: this.options.home,
        globalConfigs: this.options.globalGitConfigs,
      });
    }
    const { pinned, readOnly } = protection.result();
    return { hidden, pinned, protectedMounts: readOnly };
  }

  /** Wraps `launch` in the sandbox `policy`; `roots` are the Roots' real paths. */
  async wrap(policy: SandboxPolicy, launch: LaunchSpec, roots: string[]): Promise<ConfinedLaunch> {
    const mounts = this.mountsFor(policy, roots); // may refuse: before a directory is taken
    const temp = await this.temps.take();
    const privateTmp = policy.filesystem !== "full";
    const command: ConfinedCommand = {
      policy,
      roots,
      cwd: launch.cwd,
      tmpDir: temp.tmpDir,
      emptyDir: temp.emptyDir,
      command: launch.command,
      args: launch.args,
      ...mounts,
      startCheck: launch.cwdFd !== undefined,
    };
    const adapter = this.options.adapter;
    const dispose = () => this.temps.release(temp);
    if (adapter.adapter === "seatbelt") {
      const env = privateTmp ? withTmpdir(launch.env, temp.tmpDir) : launch.env;
      return {
        launch: { ...launch, command: adapter.path, args: sandboxExecArgs(command), env },
        tree: (child) => new PosixProcessGroup(child.pid),
        dispose,
      };
    }
    const env = privateTmp ? withTmpdir(launch.env, CONFINED_TMPDIR) : launch.env;
    return {
      launch: {
        ...launch,
        command: adapter.path,
        args: bwrapArgs(command, BWRAP_INFO_FD),
        env,
        extraStdio: bwrapStdio(launch.cwdFd),
      },
      tree: (child) => new NamespaceProcessGroup(child.pid, child.stdio[BWRAP_INFO_FD] as Readable),
      ...(command.startCheck && {
        confirmStart: (child: StartedChild) =>
          readStartStatus(child.stdio[START_STATUS_FD] as Readable),
      }),
      dispose,
    };
  }
}
