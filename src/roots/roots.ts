// Working Directory Roots: normalisation at startup and cwd authorisation per request (SPEC §11).

import { lstatSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { CommandError, errnoCode, quoteValue } from "../errors.js";

/** A Root with the identity it had at startup. */
export interface Root {
  path: string;
  dev: bigint;
  ino: bigint;
}

/**
 * A cwd as it was authorised: its real path and the identity (device + inode) of the directory
 * that path led to at that moment. The program must start in that very directory (§20.1 item 7).
 */
export interface AuthorisedCwd {
  path: string;
  dev: bigint;
  ino: bigint;
}

/** Resolves each Root to its real path; drops duplicates and Roots nested in another Root. */
export function normalizeRoots(given: string[], base: string = process.cwd()): Root[] {
  const resolved: Root[] = [];
  for (const raw of given) {
    const absolute = path.resolve(base, raw);
    let real: string;
    try {
      real = realpathSync(absolute);
      const info = statSync(real, { bigint: true });
      if (!info.isDirectory())
        throw Object.assign(new Error("not a directory"), { code: "ENOTDIR" });
      resolved.push({ path: real, dev: info.dev, ino: info.ino });
    } catch (error) {
      throw new CommandError(
        "ROOT_NOT_DIRECTORY",
        `--root ${raw} must be an existing directory (${errnoCode(error)})`,
      );
    }
  }
  const kept: Root[] = [];
  for (const root of resolved) {
    if (kept.some((k) => k.path === root.path)) continue;
    if (resolved.some((other) => other.path !== root.path && isInside(root.path, other.path))) {
      continue;
    }
    kept.push(root);
  }
  return kept;
}

/** Whether `child` is `parent` or lies below it (both absolute, normalised). */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/**
 * Decides the real working directory of a request and records its identity, or throws the §11
 * error that applies. Synchronous on purpose: a few local metadata calls cost microseconds on the
 * main thread and more than that as a thread-pool round trip each, on every call.
 */
export function authorizeCwd(roots: Root[], requested: string | undefined): AuthorisedCwd {
  let absolute: string;
  if (requested === undefined || !path.isAbsolute(requested)) {
    if (roots.length !== 1) {
      throw new CommandError(
        "CWD_NOT_ALLOWED",
        `with ${roots.length} Roots, cwd must be an absolute path inside one of them ` +
          `(got ${requested === undefined ? "no cwd" : "a relative cwd"})`,
      );
    }
    absolute = path.resolve(roots[0]!.path, requested ?? ".");
  } else {
    absolute = path.resolve(requested);
  }
  const lexicalRoot =
    roots.length === 1 ? roots[0] : roots.find((root) => isInside(absolute, root.path));
  if (lexicalRoot) checkRootIdentity(lexicalRoot);

  let real: string;
  let identity: { dev: bigint; ino: bigint };
  try {
    real = realpathSync.native(absolute);
    // lstat: `real` has no symlink in it, so one found now means the path changed since.
    const info = lstatSync(real, { bigint: true });
    if (info.isSymbolicLink()) throw replacedWhileChecked(requested ?? absolute);
    identity = { dev: info.dev, ino: info.ino };
    if (!info.isDirectory()) {
      throw new CommandError(
        "CWD_NOT_FOUND",
        `cwd ${quoteValue(requested)} exists but is not a directory`,
      );
    }
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(
      "CWD_NOT_FOUND",
      `cwd ${quoteValue(requested ?? absolute)} does not exist (${errnoCode(error)}); give an existing directory`,
    );
  }
  const realRoot = roots.find((root) => isInside(real, root.path));
  if (!realRoot) {
    throw new CommandError(
      "CWD_NOT_ALLOWED",
      `cwd ${quoteValue(requested ?? absolute)} resolves outside every Root (allowed: ${roots
        .map((r) => r.path)
        .join(", ")})`,
    );
  }
  if (realRoot !== lexicalRoot) checkRootIdentity(realRoot);
  return { path: real, ...identity };
}

/** CWD_CHANGED for a cwd whose path changed while it was being checked (§20.1 item 7). */
function replacedWhileChecked(cwd: string): CommandError {
  return new CommandError(
    "CWD_CHANGED",
    `cwd ${quoteValue(cwd)} was replaced by a symbolic link while it was checked; nothing was ` +
      `started. Call again once the directory stays put`,
  );
}

/** Throws ROOT_UNAVAILABLE when a Root is gone or is no longer the directory seen at startup. */
function checkRootIdentity(root: Root): void {
  try {
    const info = statSync(root.path, { bigint: true });
    if (info.isDirectory() && info.dev === root.dev && info.ino === root.ino) return;
  } catch {
    // fall through
  }
  throw new CommandError(
    "ROOT_UNAVAILABLE",
    `the Root ${root.path} was removed or replaced since the server started; ` +
      `restore it or restart the server`,
  );
}
