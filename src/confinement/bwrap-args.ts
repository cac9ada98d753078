// The bubblewrap argv of one confined execution, in the order SPEC §20 and §20.1 give. Pure: every
// disk lookup (which hidden, protected and git paths exist) happened before, in mounts.ts,
// server-files.ts and git-scan.ts.

import { BWRAP_INFO_FD, KERNEL_KNOBS, RUN_DIR } from "./constants.js";
import { startCommand } from "./start-check.js";
import type { ConfinedCommand } from "./types.js";
import { isWithin } from "./within-path.js";

/** No capability in any set, also as root, and none to gain (§20.1 item 3). */
const PRIVILEGE_ARGS = ["--unshare-user", "--cap-drop", "ALL"];

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
  const deny = policy.network === "deny";
  const argv = ["--die-with-parent", "--unshare-pid", ...PRIVILEGE_ARGS];
  argv.push(full ? "--bind" : "--ro-bind", "/", "/");
  argv.push("--dev", "/dev", "--proc", "/proc");
  // §20.1 item 3: bubblewrap's own /proc leaves these writable to uid 0.
  for (const knob of KERNEL_KNOBS) argv.push("--ro-bind-try", knob, knob);
  // §20.1 item 6: no host daemon's socket under /run; writable places inside it are bound again.
  if (deny) argv.push("--tmpfs", RUN_DIR);
  if (!full) {
    argv.push("--bind", command.tmpDir, "/tmp");
    // read-only: the Roots are bound read-only, so that a Root below /tmp (hidden by the private
    // /tmp) stays visible and can be the cwd; workspace-write binds them writable (§20).
    const rootBind = policy.filesystem === "workspace-write" ? "--bind" : "--ro-bind";
    for (const root of command.roots) argv.push(rootBind, root, root);
    for (const writable of policy.writablePaths) argv.push("--bind", writable, writable);
  } else if (deny) {
    for (const place of [...command.roots, ...policy.writablePaths]) {
      if (isWithin(place, RUN_DIR)) argv.push("--bind", place, place);
    }
  }
  if (deny) argv.push("--remount-ro", RUN_DIR);
  // §20.1 items 1 and 2: directories that must not be renamed or replaced, top-down, before the
  // read-only binds inside them.
  for (const pinned of command.pinned) argv.push("--bind", pinned, pinned);
  for (const kept of command.protectedMounts) argv.push("--ro-bind", kept, kept);
  for (const hidden of command.hidden) {
    const source = hidden.kind === "directory" ? command.emptyDir : "/dev/null";
    argv.push("--ro-bind", source, hidden.path);
  }
  if (deny) argv.push("--unshare-net");
  if (infoFd !== null) argv.push("--info-fd", String(infoFd));
  // bwrap re-enters the cwd by path inside its mount namespace (the same path: `/` is bound at
  // `/`); the start script then checks it is the pinned directory (§20.1 item 7).
  argv.push("--chdir", command.cwd);
  // §20.1 item 7: with a pinned cwd, the constant script checks the directory, then runs the program.
  const run = command.startCheck
    ? startCommand(command.command, command.args)
    : [command.command, ...command.args];
  argv.push("--", ...run);
  return argv;
}
