// Which directory a cwd is, for approvals (SPEC §21.1): the device and inode of the directory at
// the moment of authorisation, read with bigint so large inode numbers stay exact.

import fs from "node:fs";
import { CommandError, errnoCode, quoteValue } from "../errors.js";
import type { CwdIdentity } from "./digest.js";

/** The device and inode of `cwd` (CWD_NOT_FOUND when it is gone). */
export function cwdIdentityOf(cwd: string): CwdIdentity {
  let stat: fs.BigIntStats;
  try {
    stat = fs.statSync(cwd, { bigint: true });
  } catch (error) {
    throw new CommandError(
      "CWD_NOT_FOUND",
      `cwd ${quoteValue(cwd)} could not be read to bind the approval to it (${errnoCode(error)}); ` +
        "expected an existing directory; nothing ran",
    );
  }
  return { dev: stat.dev.toString(), ino: stat.ino.toString() };
}
