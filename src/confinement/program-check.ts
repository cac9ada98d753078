// Startup check of SPEC §20.1 item 1: no unconfined program may run a file a confined program can
// replace. When the executable of an unconfined registered program (or a Project Node
// installation it would run) lies inside a writable path of a confined one, startup fails with
// SANDBOX_UNAVAILABLE naming both. `full` confines no filesystem and is not checked (item 1 does
// not hold there; docs/confinement.md says so).

import { CommandError } from "../errors.js";
import type { SandboxPolicy } from "./types.js";
import { isWithin } from "./within-path.js";

/** A file an unconfined program runs (an executable, an installation directory). */
export interface UnconfinedFile {
  program: string;
  path: string;
  what: "executable" | "Project Node installations";
}

/** A confined program and its policy. */
export interface ConfinedProgram {
  program: string;
  policy: SandboxPolicy;
}

/** Throws SANDBOX_UNAVAILABLE for the first unconfined file inside a confined program's writable path. */
export function checkUnconfinedFiles(
  files: readonly UnconfinedFile[],
  confined: readonly ConfinedProgram[],
  roots: readonly string[],
): void {
  for (const { program, policy } of confined) {
    if (policy.filesystem === "full") continue;
    const places = [
      ...(policy.filesystem === "workspace-write" ? roots : []),
      ...policy.writablePaths,
    ];
    for (const file of files) {
      // An installation directory that holds a writable place is as exposed as one inside it.
      const place = places.find(
        (candidate) =>
          isWithin(file.path, candidate) ||
          (file.what !== "executable" && isWithin(candidate, file.path)),
      );
      if (place === undefined) continue;
      throw new CommandError(
        "SANDBOX_UNAVAILABLE",
        `the unconfined program ${file.program} runs ${file.path} (its ${file.what}), which lies ` +
          `inside ${place}, a writable path of the confined program ${program}: the confined ` +
          `program could replace it. Confine ${file.program} too, or move it out of ${place}`,
      );
    }
  }
}
