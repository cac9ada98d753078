// One execution's spool (SPEC §8, §19): both streams written to a private staging directory,
// readable live while written, then published atomically or discarded.

import { rm, type FileHandle } from "node:fs/promises";
import { CommandError } from "../errors.js";
import {
  STREAMS,
  type LivePage,
  type OutputEncoding,
  type OutputPage,
  type Spool,
  type StreamName,
  type StreamReader,
  type StreamTotals,
} from "../output/types.js";
import type { ArtifactOutcome, ArtifactUnavailableReason } from "./types.js";
import { streamFile } from "./layout.js";
import { emptyPage, resolveOffset } from "../output/page.js";
import {
  checkOffsetWithin,
  checkPageRequest,
  fileReadBytes,
  readPage,
  type PageRequest,
} from "./page.js";
import { publishStaging, type PublishSettings } from "./publish.js";
import { openRegularFile } from "./safe-file.js";
import { markSpoolEnded } from "./spool-usage.js";
import { SpoolWriter } from "./spool-writer.js";

/** The spool port as the store implements it (declared once, in output/types.ts). */
export type Staging = Spool;

type StagingState = "open" | "ended" | "published" | "discarded";

/** A staging directory with one spool writer per stream. */
export class FileStaging implements Staging {
  private readonly writers: Record<StreamName, SpoolWriter>;
  private state: StagingState = "open";
  private location: string;
  private ending: Promise<void> | undefined;
  private outcome: Promise<ArtifactOutcome> | undefined;
  private readonly flushListeners = new Set<() => void>();

  constructor(
    readonly id: string,
    stagingDir: string,
    private readonly maxStreamBytes: number,
    private readonly settings: PublishSettings,
    private readonly onSettled: (staging: FileStaging) => void,
  ) {
    this.location = stagingDir;
    this.writers = {
      stdout: new SpoolWriter(streamFile(stagingDir, "stdout"), maxStreamBytes, this.flushed),
      stderr: new SpoolWriter(streamFile(stagingDir, "stderr"), maxStreamBytes, this.flushed),
    };
  }

  onFlushed(listener: () => void): () => void {
    this.flushListeners.add(listener);
    return () => this.flushListeners.delete(listener);
  }

  private readonly flushed = () => {
    for (const listener of this.flushListeners) listener();
  };

  write(stream: StreamName, chunk: Buffer): boolean {
    return this.writers[stream].write(chunk);
  }

  drained(stream: StreamName): Promise<void> {
    return this.writers[stream].drained();
  }

  spooledBytes(stream: StreamName): number {
    return this.writers[stream].flushed;
  }

  async readLive(
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
  ): Promise<LivePage> {
    const request = checkPageRequest(offset, limit, encoding);
    const writer = this.writers[stream];
    const available = writer.flushed;
    const capped = writer.capped;
    // A negative offset counts from the end of the bytes so far (§3.3).
    offset = resolveOffset(request.offset, available);
    if (offset > this.maxStreamBytes || (capped && offset >= this.maxStreamBytes)) {
      throw capExceeded(stream, offset, this.maxStreamBytes);
    }
    if (this.state === "discarded") {
      throw new CommandError("ARTIFACT_NOT_FOUND", `the ${stream} spool was discarded`);
    }
    const settled = writer.settled;
    if (offset >= available && !settled) {
      return { ...emptyPage(offset, request.encoding), available };
    }
    checkOffsetWithin(offset, available, `the ${stream} spool`);
    const page = await this.readSpool(stream, available, request, settled);
    // A capped stream goes on past the spool, and a failed spool stops short: neither end is
    // the stream's end.
    return { ...page, eof: page.eof && settled && !capped && !writer.failed, available };
  }

  async openReader(stream: StreamName): Promise<StreamReader> {
    if (this.state === "discarded") {
      throw new CommandError("ARTIFACT_NOT_FOUND", `the ${stream} spool was discarded`);
    }
    const writer = this.writers[stream];
    const length = writer.flushed;
    // Capped or failed: the spool's end is not the stream's end.
    const final = writer.settled && !writer.capped && !writer.failed;
    const file = await this.openSpoolFile(stream);
    return { length, final, read: fileReadBytes(file), close: () => file.close() };
  }

  /** Ends both writers; the spool stays readable (the execution has ended). */
  end(): Promise<void> {
    this.ending ??= Promise.all(STREAMS.map((s) => this.writers[s].end())).then(() => {
      if (this.state === "open") this.state = "ended";
    });
    return this.ending;
  }

  async keep(): Promise<void> {
    await this.end();
    if (this.state !== "ended") return;
    await markSpoolEnded(this.location, this.settings.now()).catch(() => undefined);
  }

  publish(totals: StreamTotals): Promise<ArtifactOutcome> {
    this.outcome ??= this.publishOnce(totals);
    return this.outcome;
  }

  async discard(): Promise<void> {
    if (this.state === "published" || this.state === "discarded") return;
    if (this.outcome) {
      await this.outcome;
      return;
    }
    this.state = "discarded";
    this.outcome = Promise.resolve({ status: "discarded" });
    await Promise.all(STREAMS.map((s) => this.writers[s].abort()));
    await this.removeStaging();
  }

  private async publishOnce(totals: StreamTotals): Promise<ArtifactOutcome> {
    await this.end();
    const reason = this.refusal(totals);
    const outcome: ArtifactOutcome = reason
      ? { status: "unavailable", reason }
      : await publishStaging(this.settings, this.location, this.id, totals);
    if (outcome.status === "published") {
      this.state = "published";
      this.location = this.settings.layout.published(this.id);
      this.onSettled(this);
    } else {
      await this.removeStaging();
    }
    return outcome;
  }

  /** Why the spool cannot become an artifact, or null when it can. */
  private refusal(totals: StreamTotals): ArtifactUnavailableReason | null {
    for (const stream of STREAMS) {
      const writer = this.writers[stream];
      if (writer.capped || totals[stream] > this.maxStreamBytes) return "STREAM_CAP";
    }
    for (const stream of STREAMS) {
      const writer = this.writers[stream];
      // The spool must hold every byte the sink saw, from byte 0.
      if (writer.failed || writer.flushed !== totals[stream]) return "WRITE_FAILED";
    }
    return null;
  }

  private async readSpool(
    stream: StreamName,
    available: number,
    request: PageRequest,
    settled: boolean,
  ): Promise<OutputPage> {
    const file = await this.openSpoolFile(stream);
    try {
      return await readPage(file, available, request, settled);
    } finally {
      await file.close();
    }
  }

  private async openSpoolFile(stream: StreamName): Promise<FileHandle> {
    try {
      return await openRegularFile(streamFile(this.location, stream)).catch(() =>
        // Publication renames the spool into published/ before `location` follows it.
        openRegularFile(streamFile(this.settings.layout.published(this.id), stream)),
      );
    } catch {
      throw new CommandError(
        "ARTIFACT_NOT_FOUND",
        `expected the ${stream} spool to be readable, but it is gone (evicted or removed)`,
      );
    }
  }

  private async removeStaging(): Promise<void> {
    if (this.state !== "discarded") this.state = "discarded";
    await rm(this.location, { recursive: true, force: true }).catch(() => undefined);
    this.onSettled(this);
  }
}

/** A staging that could not be created: it drops every byte and reports why at publication. */
export class FailedStaging implements Staging {
  constructor(
    readonly id: string,
    private readonly reason: ArtifactUnavailableReason,
  ) {}

  write(): boolean {
    return true;
  }

  async keep(): Promise<void> {}

  onFlushed(): () => void {
    return () => {};
  }

  drained(): Promise<void> {
    return Promise.resolve();
  }

  spooledBytes(): number {
    return 0;
  }

  async openReader(stream: StreamName): Promise<StreamReader> {
    return this.unavailable(stream);
  }

  async readLive(stream: StreamName): Promise<LivePage> {
    return this.unavailable(stream);
  }

  private unavailable(stream: StreamName): never {
    throw new CommandError(
      "ARTIFACT_NOT_FOUND",
      `the ${stream} spool could not be kept (${this.reason}); only the inline excerpt exists`,
    );
  }

  async end(): Promise<void> {}

  async publish(): Promise<ArtifactOutcome> {
    return { status: "unavailable", reason: this.reason };
  }

  async discard(): Promise<void> {}
}

function capExceeded(stream: StreamName, offset: number, cap: number): CommandError {
  return new CommandError(
    "OUTPUT_CAP_EXCEEDED",
    `expected an offset below ${cap} bytes (the per-stream spool cap, ` +
      `--artifact-max-stream-bytes), got ${offset} on ${stream}; output past the cap was not kept`,
  );
}
