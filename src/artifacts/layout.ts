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

/** A fresh artifact id from the system's cryptographic random source. */
export function newArtifactId(): string {
  return randomBytes(ARTIFACT_ID_BYTES).toString("hex");
}

/** Whether a string is shaped like an artifact id (checked before any filesystem access). */
export function isArtifactId(value: unknown): value is string {
  return typeof value === "string" && ARTIFACT_ID_PATTERN.test(value);
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
