// The bubblewrap argv of one confined execution, in exactly the order SPEC §20 gives. Pure: every
// disk lookup (which hidden and protected paths exist) happened before, in mounts.ts.

import { BWRAP_INFO_FD } from "./constants.js";
import { startCommand } from "./start-check.js";
import type { ConfinedCommand } from "./types.js";

/**
 * The argv passed to bwrap (not including bwrap itself); the program follows `--` literally.
 * `infoFd` null leaves out `--info-fd` (the startup probe has no pipe for it).
 */
export function bwrapArgs(
  command: ConfinedCommand,
  infoFd: number | null = BWRAP_INFO_FD,
): string[] {
  const { policy } = command;
  const full = policy.filesystem === "full";
  const argv = ["--die-with-parent", "--unshare-pid"];
  argv.push(full ? "--bind" : "--ro-bind", "/", "/");
  argv.push("--dev", "/dev", "--proc", "/proc");
  if (!full) {
    argv.push("--bind", command.tmpDir, "/tmp");
    // read-only: the Roots are bound read-only, so that a Root below /tmp (hidden by the private
    // /tmp) stays visible and can be the cwd; workspace-write binds them writable (§20).
    const rootBind = policy.filesystem === "workspace-write" ? "--bind" : "--ro-bind";
    for (const root of command.roots) argv.push(rootBind, root, root);
    for (const writable of policy.writablePaths) argv.push("--bind", writable, writable);
    for (const kept of command.protectedMounts) argv.push("--ro-bind", kept, kept);
  }
  for (const hidden of command.hidden) {
    const source = hidden.kind === "directory" ? command.emptyDir : "/dev/null";
    argv.push("--ro-bind", source, hidden.path);
  }
  if (policy.network === "deny") argv.push("--unshare-net");
  if (infoFd !== null) argv.push("--info-fd", String(infoFd));
  argv.push("--chdir", chdirTarget(command.cwd));
  // §20.1 item 7: with a pinned cwd, the constant script checks the directory, then runs the program.
  const run = command.startCheck
    ? startCommand(command.command, command.args)
    : [command.command, ...command.args];
  argv.push("--", ...run);
  return argv;
}

/**
 * The directory the confined program starts in. The one place it is computed: bwrap re-enters the
 * cwd by path inside its mount namespace (the same path, since `/` is bound at `/`).
 */
export function chdirTarget(cwd: string): string {
  return cwd;
}
