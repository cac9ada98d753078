// One execution's two output sinks: inline projection, and a spool on disk once needed (SPEC §7, §8).

import type { Readable } from "node:stream";
import type { ArtifactPolicy } from "../programs/types.js";
import type { ArtifactOutcome, StreamName, StreamOutput } from "../runtime/types.js";
import { StreamProjection, type ProjectionLimits } from "./projection.js";

/** The spool of one execution, as the artifact store hands it out. */
export interface SpoolStaging {
  write(stream: StreamName, chunk: Buffer): boolean;
  drained(stream: StreamName): Promise<void>;
  publish(totals: { stdout: number; stderr: number }): Promise<ArtifactOutcome>;
  discard(): Promise<void>;
}

/** Where spools come from (the artifact store); absent when no store is configured. */
export interface StagingSource {
  createStaging(): Promise<SpoolStaging>;
}

const STREAMS: readonly StreamName[] = ["stdout", "stderr"];

/**
 * Feeds both pipes into their projections; once either stream passes its inline limit, spools
 * both streams from byte 0 so the complete output can be published. Small outputs stay in memory.
 */
export class ExecutionOutput {
  private readonly projections: Record<StreamName, StreamProjection>;
  private readonly spooled: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  private staging: SpoolStaging | undefined;
  private stagingPromise: Promise<SpoolStaging> | undefined;
  private abandoned = false;

  constructor(
    private readonly limits: ProjectionLimits,
    private readonly policy: ArtifactPolicy,
    private readonly source: StagingSource | undefined,
  ) {
    this.projections = {
      stdout: new StreamProjection(limits),
      stderr: new StreamProjection(limits),
    };
  }

  /** Reads a pipe to its end (or until it is destroyed), with backpressure from the spool. */
  async consume(stream: StreamName, readable: Readable): Promise<void> {
    try {
      for await (const chunk of readable) {
        await this.accept(stream, chunk as Buffer);
      }
    } catch {
      // A pipe destroyed by the server (PIPES_HELD_OPEN, shutdown) ends consumption quietly.
    }
  }

  /** The excerpt of one stream; `final` once the stream has ended. */
  snapshot(stream: StreamName, final: boolean): StreamOutput {
    return this.projections[stream].snapshot(final);
  }

  /** Bytes seen so far on one stream. */
  totalBytes(stream: StreamName): number {
    return this.projections[stream].totalBytes;
  }

  /** Decide the artifact once both streams have ended (§8). */
  async finish(): Promise<ArtifactOutcome> {
    if (this.policy === "never" || !this.source || this.abandoned) {
      await this.staging?.discard();
      return { status: "not-requested" };
    }
    const truncated = STREAMS.some((s) => this.projections[s].overflowed);
    if (!truncated && this.policy === "on-truncation") {
      await this.discardStaging();
      return { status: "discarded" };
    }
    const staging = this.staging ?? (await this.ensureStaging());
    for (const stream of STREAMS) await this.catchUp(stream, staging);
    return staging.publish({
      stdout: this.projections.stdout.totalBytes,
      stderr: this.projections.stderr.totalBytes,
    });
  }

  /** Shutdown: drop any spool; nothing is published. */
  async abandon(): Promise<void> {
    this.abandoned = true;
    await this.discardStaging();
  }

  private get spools(): boolean {
    return this.policy !== "never" && this.source !== undefined && !this.abandoned;
  }

  private async accept(stream: StreamName, chunk: Buffer): Promise<void> {
    const projection = this.projections[stream];
    const after = projection.totalBytes + chunk.length;
    const overflows = after > this.limits.maxOutputBytes;
    if (!this.staging && this.spools && (this.stagingPromise || overflows)) {
      await this.ensureStaging();
    }
    const staging = this.staging;
    if (!staging || this.abandoned) {
      projection.push(chunk);
      return;
    }
    await this.catchUp(stream, staging);
    projection.push(chunk);
    this.spooled[stream] += chunk.length;
    if (!staging.write(stream, chunk)) await staging.drained(stream);
  }

  /** Writes the bytes of a stream that are in memory but not yet in the spool. */
  private async catchUp(stream: StreamName, staging: SpoolStaging): Promise<void> {
    const projection = this.projections[stream];
    if (this.spooled[stream] >= projection.totalBytes) return;
    const pending = projection.retainedBytes().subarray(this.spooled[stream]);
    this.spooled[stream] = projection.totalBytes;
    if (!staging.write(stream, pending)) await staging.drained(stream);
  }

  private ensureStaging(): Promise<SpoolStaging> {
    this.stagingPromise ??= this.source!.createStaging().then((staging) => {
      this.staging = staging;
      return staging;
    });
    return this.stagingPromise;
  }

  private async discardStaging(): Promise<void> {
    const staging = this.staging ?? (this.stagingPromise ? await this.stagingPromise : undefined);
    await staging?.discard();
  }
}
