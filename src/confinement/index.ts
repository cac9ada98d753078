// The confinement stage's entry point for startup (SPEC §20): nothing when no program is confined,
// else the probed adapter wrapped in a Launcher — or SANDBOX_UNAVAILABLE, never an unconfined run.

import { discoverAdapter } from "./adapter.js";
import { Launcher } from "./launcher.js";
import { checkServerFiles, prepareServerDirectories, type ServerFiles } from "./server-files.js";
import { openTempArea } from "./temp-area.js";
import type { SandboxPolicy } from "./types.js";

export { Launcher, type ConfinedLaunch } from "./launcher.js";
export { checkUnconfinedFiles, type UnconfinedFile } from "./program-check.js";
export { globalGitConfigFiles } from "./git-config.js";
export type { ServerFiles } from "./server-files.js";
export type { SandboxAdapterInfo, SandboxPolicy, SelectionSandbox } from "./types.js";

/** What startup knows when it opens confinement. */
export interface OpenConfinementOptions {
  /** The effective policy of every confined program. */
  policies: SandboxPolicy[];
  platform?: NodeJS.Platform;
  bwrapPath?: string;
  startupPath: string;
  /** The manifest (read-only inside) and the server paths always hidden (§20.1 item 2). */
  serverFiles: ServerFiles;
  /** Server directories made (0700) before the first confined run so that they can be hidden. */
  serverDirectories: string[];
  /** The Roots' real paths (a server path may not hold one). */
  roots: string[];
  /** `~/` for git config values, and the user's global git config files. */
  home: string;
  globalGitConfigs: string[];
  /** Where the per-execution temp directories go; default the OS temp directory. */
  tempBase?: string;
}

/** The Launcher for this machine, or undefined when nothing is confined; fails closed. */
export async function openConfinement(
  options: OpenConfinementOptions,
): Promise<Launcher | undefined> {
  if (options.policies.length === 0) return undefined;
  const platform = options.platform ?? process.platform;
  checkServerFiles(options.serverFiles, options.policies, options.roots);
  prepareServerDirectories(options.serverDirectories);
  const tempArea =
    platform === "linux" || platform === "darwin" ? openTempArea(options.tempBase) : "";
  const adapter = await discoverAdapter({
    platform,
    startupPath: options.startupPath,
    policies: options.policies,
    tempArea,
    ...(options.bwrapPath !== undefined && { bwrapPath: options.bwrapPath }),
  });
  return new Launcher({
    adapter,
    tempArea,
    serverFiles: options.serverFiles,
    home: options.home,
    globalGitConfigs: options.globalGitConfigs,
  });
}
