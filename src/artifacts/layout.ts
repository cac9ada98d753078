// Where the artifact store keeps things on disk (SPEC §8) and how its names are formed.

import { randomBytes } from "node:crypto";
import path from "node:path";
import type { StreamName } from "../output/types.js";

/** An artifact id: 128 random bits as 32 lowercase hex characters (§8). */
export const ARTIFACT_ID_PATTERN = /^[0-9a-f]{32}$/;
export const ARTIFACT_ID_BYTES = 16;

/** Sub-directories and files of one store directory. */
export const STAGING_DIR = "staging";
export const PUBLISHED_DIR = "published";
export const TRASH_DIR = "trash";
export const LOCK_FILE = "store.lock";
export const METADATA_FILE = "meta.json";

/** The application's folder name inside the per-user cache directory. */
const APP_DIR = "system-command-mcp";
const ARTIFACTS_DIR = "artifacts";

/** A fresh artifact id from the system's cryptographic random source. */
export function newArtifactId(): string {
  return randomBytes(ARTIFACT_ID_BYTES).toString("hex");
}

/** Whether a string is shaped like an artifact id (checked before any filesystem access). */
export function isArtifactId(value: unknown): value is string {
  return typeof value === "string" && ARTIFACT_ID_PATTERN.test(value);
}

/**
 * The default store directory (§8): the per-user cache directory of the platform.
 * Linux and other POSIX: $XDG_CACHE_HOME (only when absolute, as the XDG spec asks) or ~/.cache;
 * macOS: ~/Library/Caches; Windows: %LOCALAPPDATA% (or ~\AppData\Local when unset).
 */
export function defaultArtifactDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  homeDir: string,
): string {
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    const base =
      local && path.win32.isAbsolute(local) ? local : path.win32.join(homeDir, "AppData", "Local");
    return path.win32.join(base, APP_DIR, ARTIFACTS_DIR);
  }
  if (platform === "darwin") {
    return path.posix.join(homeDir, "Library", "Caches", APP_DIR, ARTIFACTS_DIR);
  }
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homeDir, ".cache");
  return path.posix.join(base, APP_DIR, ARTIFACTS_DIR);
}

/** The name of a staging directory: the owner's pid and start token make stale ones findable. */
export function stagingName(ownerPid: number, ownerStart: string, id: string): string {
  return `${ownerPid}-${ownerStart}-${id}`;
}

/** The owner and id encoded in a staging directory name, or null when the name is not one. */
export function parseStagingName(name: string): { pid: number; start: string; id: string } | null {
  const match = /^([1-9][0-9]*)-([A-Za-z0-9]+)-([0-9a-f]{32})$/.exec(name);
  if (!match) return null;
  return { pid: Number(match[1]), start: match[2]!, id: match[3]! };
}

/** Absolute paths inside one store directory. */
export class StoreLayout {
  constructor(readonly root: string) {}

  get stagingRoot(): string {
    return path.join(this.root, STAGING_DIR);
  }

  get publishedRoot(): string {
    return path.join(this.root, PUBLISHED_DIR);
  }

  get trashRoot(): string {
    return path.join(this.root, TRASH_DIR);
  }

  get lockFile(): string {
    return path.join(this.root, LOCK_FILE);
  }

  staging(name: string): string {
    return path.join(this.stagingRoot, name);
  }

  published(id: string): string {
    return path.join(this.publishedRoot, id);
  }

  trash(name: string): string {
    return path.join(this.trashRoot, name);
  }
}

/** The file of one stream inside a staging or published artifact directory. */
export function streamFile(artifactDir: string, stream: StreamName): string {
  return path.join(artifactDir, stream);
}
