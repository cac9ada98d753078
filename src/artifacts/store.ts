// The on-disk artifact store (SPEC §3.3, §8, §17, §19): spools, publishes, pages, evicts, recovers.
//
// API
//   openArtifactStore(options) → ArtifactStore       never throws for directory problems: an
//                                                     unusable directory makes the store report
//                                                     itself unavailable (STORE_UNAVAILABLE)
//   store.directory                                   the store directory in use
//   store.unavailableReason()                         null, or "STORE_UNAVAILABLE"
//   store.unavailableDetail()                         what was wrong with the directory (for a log)
//   store.createStaging() → Staging                   begin spooling one execution; never throws
//   store.read(id, stream, offset, limit, encoding)   one page of a published artifact (§3.3)
//   store.close()                                     discards unfinished stagings; idempotent
//
//   staging.id                                        the artifact id it will publish under
//   staging.write(stream, chunk) → boolean            append; false = wait for drained(stream)
//   staging.drained(stream)                           backpressure
//   staging.spooledBytes(stream)                      bytes already in the spool file
//   staging.readLive(stream, offset, limit, enc)      page of the spool, + `available`
//   staging.end()                                     the execution ended; spool stays readable
//   staging.publish({stdout, stderr}) → outcome       lock, quota, rename; never throws
//   staging.discard()                                 drop the spool (policy or shutdown)
//
// Layout, locking and eviction are described in docs/artifacts.md.

import os from "node:os";
import path from "node:path";
import { mkdir, stat, type FileHandle } from "node:fs/promises";
import { CommandError, errnoCode } from "../errors.js";
import type { ArtifactBackend } from "./backend.js";
import {
  STREAMS,
  type LivePage,
  type OutputEncoding,
  type OutputPage,
  type StreamName,
  type StreamReader,
} from "../output/types.js";
import type { ArtifactUnavailableReason } from "./types.js";
import { ensurePrivateDirectory, PRIVATE_DIR_MODE } from "./directory.js";
import { defaultArtifactDir } from "./default-dir.js";
import { newArtifactId, stagingName, streamFile, StoreLayout } from "./layout.js";
import { checkId, checkStream, notFound } from "./request-checks.js";
import { isExpired, PublishedLedger } from "./ledger.js";
import { readMetadata, type ArtifactMetadata } from "./metadata.js";
import { currentOwner } from "./owner.js";
import { checkOffsetWithin, checkPageRequest, fileReadBytes, readPage } from "./page.js";
import type { PublishSettings } from "./publish.js";
import { recoverStore } from "./recovery.js";
import { openRegularFile, regularFileSize } from "./safe-file.js";
import { FailedStaging, FileStaging, type Staging } from "./staging.js";

export type { LivePage, Staging };

/** How to open a store (SPEC §8 flags; env/platform/homeDir only pick the default directory). */
export interface ArtifactStoreOptions {
  /** --artifact-dir; default: the per-user cache directory of §8. */
  dir?: string;
  /**
   * Create a missing default directory at open, not on first use: when programs are confined the
   * directory must exist before the first confined run so that it can be hidden (§20.1 item 2).
   */
  createAtOpen?: boolean;
  retentionMs: number;
  quotaBytes: number;
  maxStreamBytes: number;
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  homeDir?: string;
  /** Clock for retention (tests inject one). */
  now?: () => number;
}

/** The artifact store of one server process (several processes may share one directory). */
export interface ArtifactStore extends ArtifactBackend {
  readonly directory: string;
  unavailableReason(): ArtifactUnavailableReason | null;
  unavailableDetail(): string | null;
  createStaging(): Promise<Staging>;
}

/**
 * Opens the store: a directory given by --artifact-dir, or the default one when it exists, is
 * created or checked to be private and recovered now. A default directory that does not exist yet
 * is created (0700) on first use, when the first execution spools — so a command or a server that
 * never spools writes nothing under the user's cache directory (§8, §20.1 item 1) — unless
 * `createAtOpen` (a server with confined programs, which must hide it from them).
 */
export async function openArtifactStore(options: ArtifactStoreOptions): Promise<ArtifactStore> {
  checkOptions(options);
  const directory = path.resolve(storeDirectory(options));
  const store = new DiskArtifactStore(new StoreLayout(directory), options);
  const now = options.dir !== undefined || options.createAtOpen === true;
  if (now || (await mayExist(directory))) await store.prepare();
  return store;
}

/** False only when nothing is at `dir` (any other answer is for the directory check to judge). */
async function mayExist(dir: string): Promise<boolean> {
  try {
    await stat(dir);
    return true;
  } catch (error) {
    return errnoCode(error) !== "ENOENT";
  }
}

function storeDirectory(options: ArtifactStoreOptions): string {
  if (options.dir !== undefined) return options.dir;
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  return defaultArtifactDir(env, platform, options.homeDir ?? os.homedir());
}

/** The store directory and its three sub-directories, all private; the first problem found. */
async function preparePrivateDirectories(layout: StoreLayout): Promise<string | null> {
  const dirs = [layout.root, layout.stagingRoot, layout.publishedRoot, layout.trashRoot];
  for (const dir of dirs) {
    const problem = await ensurePrivateDirectory(dir);
    if (problem !== null) return problem;
  }
  return null;
}

function checkOptions(options: ArtifactStoreOptions): void {
  for (const name of ["retentionMs", "quotaBytes", "maxStreamBytes"] as const) {
    const value = options[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new CommandError(
        "INVALID_RUNTIME_CONFIG",
        `expected artifact store option ${name} to be a positive integer, got ${String(value)}`,
      );
    }
  }
}

class DiskArtifactStore implements ArtifactStore {
  readonly directory: string;
  readonly settings: PublishSettings;
  private readonly live = new Set<Staging>();
  private closed = false;
  /** What is wrong with the directory, once it was prepared; null: usable (or not yet made). */
  private problem: string | null = null;
  private prepared: Promise<string | null> | undefined;

  constructor(
    private readonly layout: StoreLayout,
    private readonly options: ArtifactStoreOptions,
  ) {
    this.directory = layout.root;
    this.settings = {
      layout,
      ledger: new PublishedLedger(layout),
      retentionMs: options.retentionMs,
      quotaBytes: options.quotaBytes,
      now: options.now ?? Date.now,
    };
  }

  unavailableReason(): ArtifactUnavailableReason | null {
    return this.problem === null ? null : "STORE_UNAVAILABLE";
  }

  unavailableDetail(): string | null {
    return this.problem;
  }

  /** Creates or checks the directories and recovers the store, once; the problem found, if any. */
  prepare(): Promise<string | null> {
    this.prepared ??= (async () => {
      this.problem = await preparePrivateDirectories(this.layout);
      if (this.problem === null) await recoverStore(this.settings);
      return this.problem;
    })();
    return this.prepared;
  }

  async createStaging(): Promise<Staging> {
    const id = newArtifactId();
    if (this.closed) return new FailedStaging(id, "STORE_UNAVAILABLE");
    if ((await this.prepare()) !== null) return new FailedStaging(id, "STORE_UNAVAILABLE");
    const owner = await currentOwner();
    const dir = this.layout.staging(stagingName(owner.pid, owner.start, id));
    try {
      await this.makeStagingDir(dir);
    } catch {
      return new FailedStaging(id, "WRITE_FAILED");
    }
    const maxStreamBytes = this.options.maxStreamBytes;
    const forget = (staging: FileStaging) => this.live.delete(staging);
    const staging = new FileStaging(id, dir, maxStreamBytes, this.settings, forget);
    this.live.add(staging);
    return staging;
  }

  /** mkdir 0700; recreates staging/ once if something removed it since startup. */
  private async makeStagingDir(dir: string): Promise<void> {
    try {
      await mkdir(dir, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
      const problem = await ensurePrivateDirectory(this.layout.stagingRoot);
      if (problem !== null) throw error;
      await mkdir(dir, { mode: PRIVATE_DIR_MODE });
    }
  }

  async read(
    id: string,
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
  ): Promise<OutputPage> {
    checkId(id);
    checkStream(stream);
    const request = checkPageRequest(offset, limit, encoding);
    const { file, length } = await this.openPublished(id, stream);
    try {
      checkOffsetWithin(offset, length, `artifact ${id} ${stream}`);
      return await readPage(file, length, request);
    } finally {
      await file.close();
    }
  }

  async openReader(id: string, stream: StreamName): Promise<StreamReader> {
    checkId(id);
    checkStream(stream);
    const { file, length } = await this.openPublished(id, stream);
    return { length, final: true, read: fileReadBytes(file), close: () => file.close() };
  }

  /** The open stream file of a published, unexpired, intact artifact and its length. */
  private async openPublished(
    id: string,
    stream: StreamName,
  ): Promise<{ file: FileHandle; length: number }> {
    if (this.problem !== null)
      throw notFound(`artifact ${id} cannot be read: the store is unavailable`);
    const dir = this.layout.published(id);
    const metadata = await this.liveMetadata(id, dir);
    const length = metadata[stream === "stdout" ? "stdoutBytes" : "stderrBytes"];
    let file;
    try {
      file = await openRegularFile(streamFile(dir, stream));
    } catch {
      throw notFound(`artifact ${id} is unknown, expired, evicted or corrupt`);
    }
    try {
      await checkSizes(id, dir, file, metadata, stream);
    } catch (error) {
      await file.close();
      throw error;
    }
    return { file, length };
  }

  /** The metadata of a published, unexpired artifact, else ARTIFACT_NOT_FOUND. */
  private async liveMetadata(id: string, dir: string): Promise<ArtifactMetadata> {
    const metadata = await readMetadata(dir);
    if (metadata === null) throw notFound(`artifact ${id} is unknown, expired, evicted or corrupt`);
    const { publishedAt } = metadata;
    if (isExpired(publishedAt, this.settings.retentionMs, this.settings.now())) {
      throw notFound(`artifact ${id} has expired (kept ${this.settings.retentionMs} ms)`);
    }
    return metadata;
  }

  async close(): Promise<void> {
    this.closed = true;
    const unfinished = [...this.live];
    this.live.clear();
    await Promise.all(unfinished.map((staging) => staging.discard()));
  }
}

/** Both stream files must have exactly the sizes the metadata records. */
async function checkSizes(
  id: string,
  dir: string,
  file: FileHandle,
  metadata: ArtifactMetadata,
  stream: StreamName,
): Promise<void> {
  const sizes = { stdout: metadata.stdoutBytes, stderr: metadata.stderrBytes };
  const other = STREAMS.find((s) => s !== stream)!;
  const own = (await file.stat()).size;
  const otherSize = (await regularFileSize(streamFile(dir, other))) ?? -1;
  if (own !== sizes[stream] || otherSize !== sizes[other]) {
    throw notFound(`artifact ${id} is corrupt (its files do not match its metadata)`);
  }
}
