// The server's own files inside every sandbox (SPEC §20.1 item 2): the manifest stays read-only,
// the state, artifact and audit directories (and the audit seal) are hidden, and where any of them
// lies inside a writable place every directory from that place down to it is pinned (bound onto
// itself), so that renaming an ancestor and planting a replacement fails. The directories are
// made (0700) before the first confined run, so that they exist to be hidden.

import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { CommandError, errnoCode } from "../errors.js";
import { SERVER_DIR_MODE } from "./constants.js";
import type { SandboxPolicy } from "./types.js";
import { isWithin } from "./within-path.js";

/** The server's files as confinement sees them (absolute paths). */
export interface ServerFiles {
  /** Read-only inside every sandbox (the manifest). */
  readOnly: string[];
  /** Always hidden: directories that exist (made at startup) and files that may. */
  hidden: string[];
}

/** Makes each server directory (0700) unless it exists; SANDBOX_UNAVAILABLE naming one that cannot be. */
export function prepareServerDirectories(directories: readonly string[]): void {
  for (const dir of directories) {
    try {
      mkdirSync(dir, { recursive: true, mode: SERVER_DIR_MODE });
      if (!statSync(dir).isDirectory())
        throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
    } catch (error) {
      throw new CommandError(
        "SANDBOX_UNAVAILABLE",
        `the server directory ${dir} must exist before the first confined run so that it can be ` +
          `hidden from confined programs, but it could not be created (${errnoCode(error)}); ` +
          `create it (mode 0700) or point the server elsewhere`,
      );
    }
  }
}

/** The places a policy lets a program write (the Roots only in workspace-write). */
export function writablePlaces(policy: SandboxPolicy, roots: readonly string[]): string[] {
  if (policy.filesystem === "full") return ["/"];
  return [...(policy.filesystem === "workspace-write" ? roots : []), ...policy.writablePaths];
}

/**
 * SANDBOX_UNAVAILABLE when a hidden server path cannot be hidden without hiding a place a confined
 * program must see: a Root or writable path that is inside it, or is it.
 */
export function checkServerFiles(
  files: ServerFiles,
  policies: readonly SandboxPolicy[],
  roots: readonly string[],
): void {
  const places = new Set<string>(roots);
  for (const policy of policies) for (const place of policy.writablePaths) places.add(place);
  for (const hidden of files.hidden) {
    const inside = [...places].find((place) => isWithin(place, hidden));
    if (inside === undefined) continue;
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `the server path ${hidden} must be hidden from confined programs, but ${inside} (a Root or ` +
        `writable path) lies inside it; move the server's state, artifact or audit location ` +
        `(e.g. --artifact-dir, XDG_STATE_HOME, --audit-log) out of the workspace`,
    );
  }
  for (const file of files.readOnly) {
    const isPlace = [...places].find((place) => path.resolve(place) === path.resolve(file));
    if (isPlace === undefined) continue;
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `the server file ${file} must stay read-only inside every sandbox, but it is itself a ` +
        `writable path; remove it from writablePaths`,
    );
  }
}
