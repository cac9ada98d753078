// The spool side of one execution's output (SPEC §8, §19): whether the execution spools at all,
// when its spool is created (a stream passed its inline limit, or a handle was handed out), how
// far each stream has been written to it (catching up from byte 0 out of what the projections
// retain), and what becomes of it at the end: published, kept for a handle, discarded, abandoned.
// The pipes and the projections are execution-output.ts's; this never reads a pipe.

import type { ArtifactPolicy } from "../programs/types.js";
import type { StreamProjection } from "./projection.js";
import {
  STREAMS,
  type ArtifactOutcome,
  type Spool,
  type SpoolSource,
  type StreamName,
} from "./types.js";

/** One execution's spool, from its creation to its publication or discard. */
export class OutputSpool {
  /** Bytes of each stream handed to the spool so far. */
  private readonly written: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  private current: Spool | undefined;
  private creating: Promise<Spool> | undefined;
  private dropped = false;

  /**
   * `mayOutliveCall`: the execution may outlive its call (§19), so it spools once a stream passes
   * the inline limit whatever the artifact policy (the policy then only decides publication).
   * `onFlushed`: spooled bytes became readable.
   */
  constructor(
    private readonly projections: Readonly<Record<StreamName, StreamProjection>>,
    private readonly policy: ArtifactPolicy,
    private readonly source: SpoolSource | undefined,
    private readonly mayOutliveCall: boolean,
    private readonly onFlushed: () => void,
  ) {}

  /** The spool, once one exists. */
  get staging(): Spool | undefined {
    return this.current;
  }

  /** Shut down: nothing more is spooled or published. */
  get abandoned(): boolean {
    return this.dropped;
  }

  /**
   * Whether a chunk must wait for the spool before it is taken: there is none yet, this execution
   * spools, and either one is being created or the chunk `overflows` its stream's inline limit.
   */
  mustWaitFor(overflows: boolean): boolean {
    return !this.current && this.spools && (this.creating !== undefined || overflows);
  }

  /** Whether the spool lacks bytes of a stream the projection already took. */
  behind(stream: StreamName): boolean {
    return this.current !== undefined && this.written[stream] < this.projections[stream].totalBytes;
  }

  /** Hands the spool a chunk the projection just took; false: wait for `drained(stream)`. */
  write(staging: Spool, stream: StreamName, chunk: Buffer): boolean {
    this.written[stream] += chunk.length;
    return staging.write(stream, chunk);
  }

  /** Writes the bytes of a stream that are in memory but not yet in the spool. */
  async catchUp(stream: StreamName, staging: Spool): Promise<void> {
    const projection = this.projections[stream];
    if (this.written[stream] >= projection.totalBytes) return;
    const pending = projection.retainedBytes().subarray(this.written[stream]);
    this.written[stream] = projection.totalBytes;
    if (!staging.write(stream, pending)) await staging.drained(stream);
  }

  /** The spool, created on the first call. */
  ensure(): Promise<Spool> {
    this.creating ??= this.source!.createStaging().then((staging) => {
      this.current = staging;
      staging.onFlushed(this.onFlushed);
      return staging;
    });
    return this.creating;
  }

  /** Resolves once a spool being created exists. */
  async settled(): Promise<void> {
    await this.creating;
  }

  /** Spool both streams from byte 0 now; undefined without a store (or after a shutdown). */
  async force(): Promise<Spool | undefined> {
    if (!this.source || this.dropped) return undefined;
    const staging = await this.ensure();
    await this.catchUpAll(staging);
    return staging;
  }

  /**
   * Decides the artifact once both streams have ended (§8); `truncated` tells whether an excerpt
   * was cut (asked only when there is a store). `keepSpool`: the execution handed out a running
   * handle, so an unpublished spool stays readable until `release()`.
   */
  async finish(keepSpool: boolean, truncated: () => boolean): Promise<ArtifactOutcome> {
    if (!this.source || this.dropped) return { status: "not-requested" };
    const publish = this.policy === "always" || (this.policy === "on-truncation" && truncated());
    if (!publish) {
      const status = this.policy === "never" ? "not-requested" : "discarded";
      if (keepSpool && this.current) {
        await this.catchUpAll(this.current);
        await this.current.keep();
      } else {
        await this.release();
      }
      return { status };
    }
    const staging = this.current ?? (await this.ensure());
    await this.catchUpAll(staging);
    await staging.end();
    return staging.publish({
      stdout: this.projections.stdout.totalBytes,
      stderr: this.projections.stderr.totalBytes,
    });
  }

  /** Shutdown: drop any spool; nothing is published. */
  async abandon(): Promise<void> {
    this.dropped = true;
    await this.release();
  }

  /** Drops an unpublished spool (a published artifact is the store's from now on). */
  async release(): Promise<void> {
    const staging = this.current ?? (this.creating ? await this.creating : undefined);
    await staging?.discard();
  }

  /** Whether this execution spools once a stream passes its inline limit. */
  private get spools(): boolean {
    if (!this.source || this.dropped) return false;
    return this.mayOutliveCall || this.policy !== "never";
  }

  private async catchUpAll(staging: Spool): Promise<void> {
    for (const stream of STREAMS) await this.catchUp(stream, staging);
  }
}
