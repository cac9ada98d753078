// macOS: the Seatbelt profile with the meaning of SPEC §20 and the `sandbox-exec` argv around it.
// Paths reach the profile as `-D` parameters, never spliced into its text, so no path can change
// the profile's meaning. Designed and unit-tested on the text; not release-gated (no macOS here).

import type { ConfinedCommand } from "./types.js";

/** Device files every program may write (the sandbox must not break `> /dev/null`). */
const WRITABLE_DEVICES = ["/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper"];

/** One `-D NAME=value` parameter and where the profile refers to it. */
interface Parameter {
  name: string;
  value: string;
}

/** A profile text and the parameters it reads. */
export interface SeatbeltProfile {
  text: string;
  parameters: Parameter[];
}

/** `(subpath (param "NAME"))` for each parameter. */
function subpaths(parameters: readonly Parameter[], matcher = "subpath"): string[] {
  return parameters.map((parameter) => `(${matcher} (param "${parameter.name}"))`);
}

/** Parameters named PREFIX_0, PREFIX_1, … for a list of paths. */
function named(prefix: string, paths: readonly string[]): Parameter[] {
  return paths.map((value, index) => ({ name: `${prefix}_${index}`, value }));
}

/** The Seatbelt profile for a confined command (the private temp dir is `command.tmpDir`). */
export function seatbeltProfile(command: ConfinedCommand): SeatbeltProfile {
  const { policy } = command;
  const lines = ["(version 1)", "(allow default)"];
  const parameters: Parameter[] = [];
  if (policy.filesystem !== "full") {
    const tmp = named("TMP", [command.tmpDir]);
    const roots = policy.filesystem === "workspace-write" ? named("ROOT", command.roots) : [];
    const writable = named("WRITABLE", policy.writablePaths);
    const kept = named("PROTECTED", command.protectedMounts);
    parameters.push(...tmp, ...roots, ...writable, ...kept);
    lines.push("(deny file-write*)");
    const allowed = [
      ...subpaths([...tmp, ...roots, ...writable]),
      ...WRITABLE_DEVICES.map((device) => `(literal "${device}")`),
    ];
    lines.push(`(allow file-write*\n  ${allowed.join("\n  ")})`);
    if (kept.length > 0) lines.push(`(deny file-write*\n  ${subpaths(kept).join("\n  ")})`);
  }
  const hiddenDirs = named(
    "HIDDEN_DIR",
    command.hidden.filter((h) => h.kind === "directory").map((h) => h.path),
  );
  const hiddenFiles = named(
    "HIDDEN_FILE",
    command.hidden.filter((h) => h.kind === "file").map((h) => h.path),
  );
  parameters.push(...hiddenDirs, ...hiddenFiles);
  const hidden = [...subpaths(hiddenDirs), ...subpaths(hiddenFiles, "literal")];
  if (hidden.length > 0) lines.push(`(deny file-read* file-write*\n  ${hidden.join("\n  ")})`);
  if (policy.network === "deny") lines.push("(deny network*)");
  return { text: lines.join("\n") + "\n", parameters };
}

/** The argv of `sandbox-exec` (not including itself): profile, parameters, `--`, the program. */
export function sandboxExecArgs(command: ConfinedCommand): string[] {
  const profile = seatbeltProfile(command);
  const argv = ["-p", profile.text];
  for (const parameter of profile.parameters) argv.push(`-D${parameter.name}=${parameter.value}`);
  argv.push("--", command.command, ...command.args);
  return argv;
}
