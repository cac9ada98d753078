// The metadata file of a published artifact (SPEC §8): version, publication time and stream
// sizes — never args, env, cwd, input or output content.

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { METADATA_FILE } from "./layout.js";
import { PRIVATE_FILE_MODE } from "./directory.js";
import { entryKind, readRegularFile } from "./safe-file.js";

export const METADATA_VERSION = 1;

/** Longest metadata file accepted when reading (a few dozen bytes are written). */
const MAX_METADATA_BYTES = 4096;

export interface ArtifactMetadata {
  version: number;
  publishedAt: number;
  stdoutBytes: number;
  stderrBytes: number;
}

/** Writes the metadata file into an artifact directory (0600, exclusive create). */
export async function writeMetadata(dir: string, metadata: ArtifactMetadata): Promise<void> {
  const text = JSON.stringify(metadata);
  await writeFile(path.join(dir, METADATA_FILE), text, { mode: PRIVATE_FILE_MODE, flag: "wx" });
}

/**
 * Reads and checks an artifact's metadata; null when it is missing or corrupt — also when the
 * artifact directory is not a real directory or meta.json not a regular file (a planted symlink
 * or FIFO, #14).
 */
export async function readMetadata(dir: string): Promise<ArtifactMetadata | null> {
  if ((await entryKind(dir)) !== "directory") return null;
  const bytes = await readRegularFile(path.join(dir, METADATA_FILE), MAX_METADATA_BYTES);
  if (bytes === null) return null;
  const text = bytes.toString("utf8");
  try {
    return parseMetadata(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The total bytes an artifact holds (what the quota counts). */
export function artifactBytes(metadata: ArtifactMetadata): number {
  return metadata.stdoutBytes + metadata.stderrBytes;
}

function parseMetadata(value: unknown): ArtifactMetadata | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  if (record.version !== METADATA_VERSION) return null;
  const { publishedAt, stdoutBytes, stderrBytes } = record;
  if (!isCount(publishedAt) || !isCount(stdoutBytes) || !isCount(stderrBytes)) return null;
  return { version: METADATA_VERSION, publishedAt, stdoutBytes, stderrBytes };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
