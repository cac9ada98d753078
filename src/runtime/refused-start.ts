// A confined execution whose sandbox ended before the program ran (SPEC §20.1 item 7): the start
// script found another directory at the cwd's path (its exit 125 without the status byte), or
// bubblewrap itself could not enter the path (`--chdir` failed: it is gone or no directory now).
// Either is CWD_CHANGED — nothing of the program ran. Any other failure of bubblewrap before the
// program (a mount it could not make) stays an ordinary result with bubblewrap's stderr, as before.

import { lstatSync } from "node:fs";
import { CWD_MISMATCH_EXIT } from "../confinement/start-check.js";
import { changed, sameDirectory } from "../roots/cwd-pin.js";
import type { AuthorisedCwd } from "../roots/roots.js";
import type { Execution } from "./execution.js";

/** Throws CWD_CHANGED when `execution` (unconfirmed) never ran its program for a cwd reason. */
export async function refusedStart(execution: Execution, authorised: AuthorisedCwd): Promise<void> {
  const result = await execution.result;
  if (result.exitCode === CWD_MISMATCH_EXIT) {
    throw changed(authorised.path, "inside the sandbox, its path led to another directory");
  }
  if (!stillAtItsPath(authorised)) {
    throw changed(authorised.path, "it left its path before the sandbox could enter it");
  }
}

/** Whether the authorised directory is (still, or again) at its path, not through a symlink. */
function stillAtItsPath(authorised: AuthorisedCwd): boolean {
  try {
    const info = lstatSync(authorised.path, { bigint: true });
    return info.isDirectory() && sameDirectory(info, authorised);
  } catch {
    return false;
  }
}
