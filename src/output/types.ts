// The output stage's own shapes: streams, excerpts, pages, and the one spool port (SPEC §3.3, §7,
// §8, §19). The artifact store implements the port; ExecutionOutput uses it.

/** The two output streams, in report order. */
export const STREAMS = ["stdout", "stderr"] as const;
export type StreamName = (typeof STREAMS)[number];

/**
 * A stream's bounded head+tail excerpt with exact byte accounting (§7), keys in the §7 order.
 * A running snapshot shows only a range of the stream (§19 Revision 3): `sinceOffset` is where
 * that range starts; `totalBytes` is always the absolute count so far.
 */
export interface StreamOutput {
  truncated: boolean;
  totalBytes: number;
  /** Running snapshots: the byte offset where the range this excerpt shows starts. */
  sinceOffset?: number;
  omittedBytes: number;
  /** When truncated: the byte offset where the omitted bytes start (page them from there). */
  omittedFrom?: number;
  lossyUtf8: boolean;
  text: string;
}

/** How a page carries its bytes (§3.3). */
export const OUTPUT_ENCODINGS = ["utf8", "base64"] as const;
export type OutputEncoding = (typeof OUTPUT_ENCODINGS)[number];

/** One page of a stream (§3.3). */
export interface OutputPage {
  /** The absolute start of the page (useful after a negative offset). */
  offset: number;
  bytes: number;
  nextOffset: number;
  eof: boolean;
  encoding: OutputEncoding;
  text?: string;
  lossyUtf8?: boolean;
  base64?: string;
}

/** Reads `size` bytes at `position` of a stream (all of them, or throws). */
export type ReadBytes = (position: number, size: number) => Promise<Buffer>;

/** Raw access to the bytes of one stream known so far (grep scans it, §3.3). */
export interface StreamReader {
  length: number;
  /** Whether `length` is final (false while the execution still writes). */
  final: boolean;
  read: ReadBytes;
  close(): Promise<void>;
}

/** A live page also says how many bytes of the stream are in the spool so far. */
export type LivePage = OutputPage & { available: number };

/** Byte totals of both streams. */
export type StreamTotals = Record<StreamName, number>;

/**
 * The spool port: one execution's spool, on its way to becoming an artifact. Declared here once;
 * the artifact store's stagings implement it.
 */
export interface Spool {
  /** The artifact id it will publish under. */
  readonly id: string;
  /**
   * Appends; false means wait for `drained(stream)`. The chunk is done with when write() returns
   * (written or copied): the caller reads pipes into one reused buffer.
   */
  write(stream: StreamName, chunk: Buffer): boolean;
  drained(stream: StreamName): Promise<void>;
  /** Bytes already in the spool file. */
  spooledBytes(stream: StreamName): number;
  /** A page of the spool while it is written, plus `available`. */
  readLive(
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
  ): Promise<LivePage>;
  /** Raw read access to the bytes of one stream spooled so far. */
  openReader(stream: StreamName): Promise<StreamReader>;
  /** The execution ended; the spool stays readable. */
  end(): Promise<void>;
  /**
   * Ends the writers and keeps the spool readable after its execution ended (a handle's): it then
   * counts toward the quota and may be evicted oldest first, like a published artifact.
   */
  keep(): Promise<void>;
  /** Calls `listener` whenever spooled bytes became readable; returns the unsubscribe function. */
  onFlushed(listener: () => void): () => void;
  /** Lock, quota, rename; never throws. */
  publish(totals: StreamTotals): Promise<ArtifactOutcome>;
  /** Drops the spool (policy or shutdown). */
  discard(): Promise<void>;
}

/** Where spools come from (the artifact store); absent when no store is configured. */
export interface SpoolSource {
  createStaging(): Promise<Spool>;
}

// What became of an execution's spool (SPEC §4 `artifact`, §8): the result of Spool.publish.

/** The artifact statuses; the output schema's enum comes from this list. */
export const ARTIFACT_STATUSES = [
  "not-requested",
  "discarded",
  "published",
  "unavailable",
] as const;
export type ArtifactStatus = (typeof ARTIFACT_STATUSES)[number];

/** Why an artifact is `unavailable`. */
export const ARTIFACT_UNAVAILABLE_REASONS = [
  "STREAM_CAP",
  "QUOTA",
  "STORE_UNAVAILABLE",
  "LOCK_TIMEOUT",
  "WRITE_FAILED",
] as const;
export type ArtifactUnavailableReason = (typeof ARTIFACT_UNAVAILABLE_REASONS)[number];

/** The artifact field of a Canonical Result. */
export interface ArtifactOutcome {
  status: ArtifactStatus;
  id?: string;
  reason?: ArtifactUnavailableReason;
}
