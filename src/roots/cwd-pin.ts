// The directory a program starts in is the one that was authorised (SPEC §11, §20.1 item 7,
// §21.1). The cwd is authorised by its real path and the identity (device + inode) found there;
// right before the spawn — after any approval wait — the path is opened again and the open
// descriptor must be that same directory, still inside a Root. The child then starts in the very
// directory held open: unconfined on Linux through `/proc/self/fd/N` (valid in the child until
// exec), confined through the descriptor handed to the sandbox (confinement/start-check.ts).

import { closeSync, constants, fstatSync, openSync, readlinkSync, statSync } from "node:fs";
import { CommandError, errnoCode, quoteValue } from "../errors.js";
import { isInside, type AuthorisedCwd, type Root } from "./roots.js";

/** An authorised cwd held open until the child has started in it. */
export interface PinnedCwd {
  /** What to hand to spawn as cwd: `/proc/self/fd/N` on Linux, else the real path. */
  readonly spawnCwd: string;
  /** The directory's real path, as verified through the open descriptor. */
  readonly path: string;
  /** The open directory (Linux only): confinement passes it into the sandbox. */
  readonly fd?: number;
  /** Closes the descriptor once the child has started (idempotent). */
  close(): void;
}

const DIRECTORY_FLAGS =
  constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

/**
 * Opens the authorised directory again and verifies through the descriptor that it is the same
 * directory (device + inode) and still lies inside one of `roots`; throws CWD_CHANGED otherwise
 * (nothing may be spawned). Without /proc (not Linux) the identity is checked by path, which
 * leaves a window between this check and the child's chdir (docs/confinement.md says so).
 */
export function pinCwd(
  authorised: AuthorisedCwd,
  roots: Root[],
  platform = process.platform,
): PinnedCwd {
  const real = authorised.path;
  if (platform !== "linux") {
    let info: { dev: bigint; ino: bigint; isDirectory(): boolean };
    try {
      info = statSync(real, { bigint: true });
    } catch (error) {
      throw changed(real, `it is gone (${errnoCode(error)})`);
    }
    if (!info.isDirectory() || !sameDirectory(info, authorised)) {
      throw changed(real, "another directory is at its path now");
    }
    return { spawnCwd: real, path: real, close: () => {} };
  }
  let fd: number;
  try {
    fd = openSync(real, DIRECTORY_FLAGS);
  } catch (error) {
    const code = errnoCode(error);
    const what =
      code === "ELOOP" || code === "ENOTDIR"
        ? "its path is a symbolic link or not a directory now"
        : `it is gone from its path (${code})`;
    throw changed(real, what);
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const spawnCwd = `/proc/self/fd/${fd}`;
  try {
    if (!sameDirectory(fstatSync(fd, { bigint: true }), authorised)) {
      throw changed(real, "another directory is at its path now");
    }
    const opened = readlinkSync(spawnCwd);
    if (!roots.some((root) => isInside(opened, root.path))) {
      throw changed(real, "its path now leads outside every Root");
    }
    return { spawnCwd, path: opened, fd, close };
  } catch (error) {
    close();
    if (error instanceof CommandError) throw error;
    throw changed(real, `it cannot be read through its descriptor (${errnoCode(error)})`);
  }
}

/** Whether a stat result is the authorised directory. */
export function sameDirectory(
  info: { dev: bigint; ino: bigint },
  authorised: { dev: bigint; ino: bigint },
): boolean {
  return info.dev === authorised.dev && info.ino === authorised.ino;
}

/** CWD_CHANGED: what was authorised is not what would run. */
export function changed(real: string, what: string): CommandError {
  return new CommandError(
    "CWD_CHANGED",
    `cwd ${quoteValue(real)} is no longer the directory that was authorised (${what}); ` +
      `nothing was started. Check the directory and call again`,
  );
}
