// The shapes of confinement (SPEC §20): the manifest's `sandbox` as written, the effective policy
// of one program, the adapter found at startup, and what a confined launch adds to a spawn.

import type { FilesystemMode, NetworkMode } from "../manifest/types.js";

// The manifest's `sandbox` object as written lives in manifest/types.ts (manifest/ imports no stage
// that reads the manifest); re-exported here for confinement's own files.
export type { FilesystemMode, NetworkMode, SandboxInput } from "../manifest/types.js";

/** The effective policy of one confined program: every field filled in, paths absolute. */
export interface SandboxPolicy {
  filesystem: FilesystemMode;
  /** Real paths of the extra writable directories (checked to exist at startup). */
  writablePaths: string[];
  /** Absolute paths made unreadable (missing ones are skipped per execution). */
  hiddenPaths: string[];
  /** Paths relative to each writable Root that stay read-only. */
  protectedPaths: string[];
  network: NetworkMode;
}

export type SandboxAdapterName = "bubblewrap" | "seatbelt";

/** The adapter startup found and probed (system_environment.sandbox). */
export interface SandboxAdapterInfo {
  adapter: SandboxAdapterName;
  version: string;
  path: string;
}

/** What results add as `programSelection.sandbox` for a confined run. */
export interface SelectionSandbox {
  adapter: SandboxAdapterName;
  filesystem: FilesystemMode;
  network: NetworkMode;
}

/** A hidden path as found when an execution starts: a directory or anything else (a file). */
export interface HiddenMount {
  path: string;
  kind: "directory" | "file";
}

/** Everything the argv/profile builders need, already looked up on disk. */
export interface ConfinedCommand {
  policy: SandboxPolicy;
  /** Writable Roots (real paths); used only by `workspace-write`. */
  roots: string[];
  /** The authorised physical cwd. */
  cwd: string;
  /** The per-execution private temp directory (host path). */
  tmpDir: string;
  /** An empty directory (host path) mounted read-only over hidden directories. */
  emptyDir: string;
  /** Hidden paths that exist now, server directories included. */
  hidden: HiddenMount[];
  /**
   * Directories bound onto themselves, outermost first, so that they cannot be renamed or
   * replaced (§20.1 items 1 and 2); empty on macOS.
   */
  pinned: string[];
  /** Paths (absolute, real) kept read-only: protected paths, git files, the manifest. */
  protectedMounts: string[];
  /** The program as it would be spawned unconfined. */
  command: string;
  args: string[];
  /**
   * The pinned cwd is passed in as fd 9 and checked before the program runs (start-check.ts);
   * absent for the startup probe, which has no pinned directory.
   */
  startCheck?: boolean;
}
