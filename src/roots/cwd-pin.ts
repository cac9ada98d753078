// The cwd check and the child's chdir on the same directory (SPEC §11, §17; #14). The cwd is
// authorised by its real path, but a path can change between the check and the chdir (a rename
// loop swapping a directory for a symlink). So the authorised directory is opened, the open
// descriptor is verified (where it really is), and the child starts in that very directory: on
// Linux through `/proc/self/fd/N`, which stays valid in the child until exec.

import { closeSync, constants, openSync, readlinkSync } from "node:fs";
import { CommandError, errnoCode, quoteValue } from "../errors.js";
import { isInside, type Root } from "./roots.js";

/** An authorised cwd held open until the child has started in it. */
export interface PinnedCwd {
  /** What to hand to spawn as cwd: `/proc/self/fd/N` on Linux, else the real path. */
  readonly spawnCwd: string;
  /** The directory's real path, as verified through the open descriptor. */
  readonly path: string;
  /** Closes the descriptor once the child has started (idempotent). */
  close(): void;
}

const DIRECTORY_FLAGS =
  constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Opens the authorised directory `real` and verifies through the descriptor that what was opened
 * lies inside one of `roots`. Throws CWD_NOT_ALLOWED when it no longer does (it was swapped in a
 * race), CWD_NOT_FOUND when it is gone. Without /proc (not Linux) it returns the path unchanged.
 */
export function pinCwd(real: string, roots: Root[], platform = process.platform): PinnedCwd {
  if (platform !== "linux") return { spawnCwd: real, path: real, close: () => {} };
  let fd: number;
  try {
    fd = openSync(real, DIRECTORY_FLAGS);
  } catch (error) {
    throw changed(real, errnoCode(error));
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const spawnCwd = `/proc/self/fd/${fd}`;
  let opened: string;
  try {
    opened = readlinkSync(spawnCwd);
  } catch (error) {
    close();
    throw changed(real, errnoCode(error));
  }
  if (!roots.some((root) => isInside(opened, root.path))) {
    close();
    throw new CommandError(
      "CWD_NOT_ALLOWED",
      `cwd ${quoteValue(real)} was replaced while it was checked and now leads outside every ` +
        `Root; nothing was started`,
    );
  }
  return { spawnCwd, path: opened, close };
}

function changed(real: string, code: string): CommandError {
  if (code === "ELOOP") {
    return new CommandError(
      "CWD_NOT_ALLOWED",
      `cwd ${quoteValue(real)} was replaced by a symbolic link while it was checked; nothing was started`,
    );
  }
  return new CommandError(
    "CWD_NOT_FOUND",
    `cwd ${quoteValue(real)} disappeared while it was checked (${code}); give an existing directory`,
  );
}
