// One execution's output (SPEC §7, §8, §19): reads both pipes into their inline projections,
// feeding the spool (output-spool.ts) as it goes, and serves excerpts, running snapshots and live
// reads from memory or from the spool. When and where bytes are spooled is output-spool.ts's.

import type { Readable } from "node:stream";
import { CommandError } from "../errors.js";
import type { ArtifactOutcome } from "./types.js";
import type { ArtifactPolicy } from "../programs/types.js";
import { readIntoReusedBuffer, type PipeReader } from "./pipe-reader.js";
import {
  projectionCapacity,
  projectStreams,
  type InlineBudget,
  type PerStream,
} from "./inline-budget.js";
import { checkOffsetWithin, checkPageRequest, memoryReader, readPage } from "./page.js";
import { liveBytes } from "./live-bytes.js";
import { OutputSpool } from "./output-spool.js";
import { StreamProjection, type ProjectionLimits } from "./projection.js";
import { projectRanges, type RangeSnapshot } from "./range-projection.js";
import {
  STREAMS,
  type LivePage,
  type OutputEncoding,
  type Spool,
  type SpoolSource,
  type StreamName,
  type StreamOutput,
  type StreamReader,
} from "./types.js";

/**
 * Feeds both pipes into their projections; once either stream passes its inline limit, spools
 * both streams from byte 0 so the complete output can be published or read live. Small outputs
 * stay in memory.
 */
export class ExecutionOutput {
  private readonly projections: Record<StreamName, StreamProjection>;
  /** What each projection keeps in memory: enough for the largest share it may get. */
  private readonly capacity: ProjectionLimits;
  private readonly spool: OutputSpool;
  private readonly listeners = new Set<() => void>();
  private observer: ((stream: StreamName, chunk: Uint8Array) => void) | undefined;
  private readonly pipes = new Set<PipeReader>();
  private readonly readables = new Set<Readable>();

  /** `mayOutliveCall`: the execution may outlive its call (§19); see OutputSpool. */
  constructor(
    private readonly budget: InlineBudget,
    policy: ArtifactPolicy,
    source: SpoolSource | undefined,
    mayOutliveCall = false,
  ) {
    this.capacity = projectionCapacity(budget);
    this.projections = {
      stdout: new StreamProjection(this.capacity),
      stderr: new StreamProjection(this.capacity),
    };
    this.spool = new OutputSpool(this.projections, policy, source, mayOutliveCall, () =>
      this.notify(),
    );
  }

  /** Sees every chunk once, synchronously, as it arrives (before it may be reused). */
  observe(observer: (stream: StreamName, chunk: Uint8Array) => void): void {
    this.observer = observer;
  }

  /**
   * Reads a pipe to its end (or until it is destroyed), with backpressure from the spool: into
   * one reused buffer where the pipe allows it (pipe-reader.ts), else chunk by chunk.
   */
  async consume(stream: StreamName, readable: Readable): Promise<void> {
    let reader: PipeReader | undefined = undefined;
    reader = readIntoReusedBuffer(readable, (view) => this.acceptNow(stream, view, reader!));
    if (reader) {
      this.pipes.add(reader);
      await reader.done;
      this.pipes.delete(reader);
      return;
    }
    this.readables.add(readable);
    try {
      for await (const chunk of readable) {
        await this.accept(stream, chunk as Buffer);
        this.notify();
      }
    } catch {
      // A pipe destroyed by the server (PIPES_HELD_OPEN, shutdown) ends consumption quietly.
    } finally {
      this.readables.delete(readable);
    }
  }

  /** Closes the pipes still being read (they are held open by an escaped descendant). */
  closePipes(): void {
    for (const reader of this.pipes) reader.destroy();
    for (const readable of this.readables) readable.destroy();
  }

  /**
   * Called after every chunk, and whenever spooled bytes became readable (live readers wait on
   * it). Returns the unsubscribe function.
   */
  onData(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Both excerpts, sharing the inline budget (§7); `final` once the streams have ended. */
  snapshots(final: boolean): PerStream<StreamOutput> {
    return projectStreams(this.projections, this.budget, final);
  }

  /** A running snapshot of each stream from `starts` to the bytes so far (§19 Revision 3). */
  rangeSnapshots(starts: PerStream<number>): Promise<RangeSnapshot> {
    const range = (stream: StreamName) => ({
      start: starts[stream],
      end: this.projections[stream].totalBytes,
      source: liveBytes(this.projections[stream], () => this.spool.staging, stream),
    });
    return projectRanges({ stdout: range("stdout"), stderr: range("stderr") }, this.budget);
  }

  /** Every byte of a stream while it fits inline (nothing was dropped), else undefined. */
  inMemory(stream: StreamName): Buffer | undefined {
    const projection = this.projections[stream];
    return projection.overflowed ? undefined : projection.retainedBytes();
  }

  /**
   * A page of one stream for a live reader: from the spool, or — once the execution has `ended`
   * without one — from memory, through the same page function as stored pages.
   */
  async readLive(
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
    ended: boolean,
  ): Promise<LivePage> {
    const staging = this.spool.staging;
    if (staging) return staging.readLive(stream, offset, limit, encoding);
    const memory = ended ? this.inMemory(stream) : undefined;
    if (!memory) throw notStored(stream);
    const request = checkPageRequest(offset, limit, encoding);
    checkOffsetWithin(request.offset, memory.length, `the ${stream} output`);
    const page = await readPage(memoryReader(memory), memory.length, request);
    return { ...page, available: memory.length };
  }

  /** Raw access to one stream for a scan: the spool, or memory once `ended` without one. */
  async openReader(stream: StreamName, ended: boolean): Promise<StreamReader> {
    const staging = this.spool.staging;
    if (staging) return staging.openReader(stream);
    const memory = ended ? this.inMemory(stream) : undefined;
    if (!memory) throw notStored(stream);
    return {
      length: memory.length,
      final: true,
      read: memoryReader(memory),
      close: async () => {},
    };
  }

  /** Bytes seen so far on one stream. */
  totalBytes(stream: StreamName): number {
    return this.projections[stream].totalBytes;
  }

  /** The spool, once one exists. */
  get staging(): Spool | undefined {
    return this.spool.staging;
  }

  /** Resolves once a spool being created exists (so reading the pipes is not blocked on it). */
  stagingSettled(): Promise<void> {
    return this.spool.settled();
  }

  /** Spool both streams from byte 0 now (the execution yielded or runs in the background). */
  forceSpool(): Promise<Spool | undefined> {
    return this.spool.force();
  }

  /**
   * Decides the artifact once both streams have ended (§8). `keepSpool`: the execution handed
   * out a running handle, so an unpublished spool stays readable until `release()`.
   */
  finish(keepSpool: boolean): Promise<ArtifactOutcome> {
    return this.spool.finish(keepSpool, () => {
      const excerpts = this.snapshots(true);
      return STREAMS.some((stream) => excerpts[stream].truncated);
    });
  }

  /** Shutdown: drop any spool; nothing is published. */
  abandon(): Promise<void> {
    return this.spool.abandon();
  }

  /** Drops an unpublished spool (a published artifact is the store's from now on). */
  release(): Promise<void> {
    return this.spool.release();
  }

  /** Whether `length` more bytes take a stream past what its projection keeps inline. */
  private overflows(stream: StreamName, length: number): boolean {
    return this.projections[stream].totalBytes + length > this.capacity.maxOutputBytes;
  }

  /**
   * One read of a pipe, seen through the reused buffer (valid only during this call): projected
   * and spooled before returning. When the spool must be waited for, the bytes are copied and
   * reading pauses (false) until they are in.
   */
  private acceptNow(stream: StreamName, view: Buffer, reader: PipeReader): boolean {
    const spool = this.spool;
    const waitForSpool = spool.mustWaitFor(this.overflows(stream, view.length));
    if (waitForSpool || spool.behind(stream) || spool.abandoned) {
      const copy = Buffer.from(view); // accept() shows it to the observer
      this.accept(stream, copy).then(
        () => {
          this.notify();
          reader.resume();
        },
        () => reader.destroy(), // as a failed chunk ends the chunk-by-chunk loop below
      );
      return false;
    }
    this.observer?.(stream, view);
    this.projections[stream].push(view);
    const staging = spool.staging;
    if (staging) {
      if (!spool.write(staging, stream, view)) {
        void staging.drained(stream).then(() => reader.resume());
        this.notify();
        return false;
      }
    }
    this.notify();
    return true;
  }

  private async accept(stream: StreamName, chunk: Buffer): Promise<void> {
    this.observer?.(stream, chunk);
    const projection = this.projections[stream];
    if (this.spool.mustWaitFor(this.overflows(stream, chunk.length))) await this.spool.ensure();
    const staging = this.spool.staging;
    if (!staging || this.spool.abandoned) {
      projection.push(chunk);
      return;
    }
    await this.spool.catchUp(stream, staging);
    projection.push(chunk);
    if (!this.spool.write(staging, stream, chunk)) await staging.drained(stream);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function notStored(stream: StreamName): CommandError {
  return new CommandError(
    "ARTIFACT_NOT_FOUND",
    `the ${stream} of this execution is not stored (the artifact store is unavailable)`,
  );
}
