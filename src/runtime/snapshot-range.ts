// Which range of each stream a running snapshot shows (SPEC §19 Revision 3): from the
// execution's cursor, from the offsets a system_wait passed in `since`, or (`full`) from byte 0.

import { CommandError } from "../errors.js";
import type { ExecutionOutput } from "../output/execution-output.js";
import type { PerStream } from "../output/inline-budget.js";
import { STREAMS, type StreamName, type StreamOutput } from "../output/types.js";

/** What a system_wait may ask of the snapshot it returns. */
export interface SnapshotView {
  /** Byte offsets to start each stream's range at instead of the cursor. */
  since?: Partial<Record<StreamName, number>>;
  /** The whole of each stream so far. */
  full?: boolean;
}

/**
 * Checks `since` and `full` against the bytes so far: offsets are integers from 0 to the stream's
 * bytes so far, and the two are not combined (INVALID_REQUEST otherwise).
 */
export function checkSnapshotView(
  view: SnapshotView,
  totals: Record<StreamName, number>,
): SnapshotView {
  if (view.full !== undefined && typeof view.full !== "boolean") {
    throw new CommandError(
      "INVALID_REQUEST",
      `full must be true or false, got ${typeof view.full}`,
    );
  }
  if (view.since === undefined) return view;
  if (view.full) {
    throw new CommandError(
      "INVALID_REQUEST",
      "pass either since (a range from these offsets) or full (the whole output so far), not both",
    );
  }
  for (const stream of STREAMS) {
    const offset = view.since[stream];
    if (offset === undefined) continue;
    if (!Number.isInteger(offset) || offset < 0 || offset > totals[stream]) {
      throw new CommandError(
        "INVALID_REQUEST",
        `since.${stream} must be an integer byte offset from 0 to the ${totals[stream]} bytes ` +
          `of ${stream} so far, got ${offset}`,
      );
    }
  }
  return view;
}

/** Where each range starts: `full` → 0, else the `since` offset, else the cursor. */
export function rangeStarts(
  view: SnapshotView,
  cursors: Record<StreamName, number>,
): Record<StreamName, number> {
  const start = (stream: StreamName) => (view.full ? 0 : (view.since?.[stream] ?? cursors[stream]));
  return { stdout: start("stdout"), stderr: start("stderr") };
}

/**
 * One execution's per-stream cursors: the end of the range of the last running snapshot. Snapshots
 * are produced one after the other, so each takes the bytes after the previous one.
 */
export class SnapshotCursors {
  private cursors: Record<StreamName, number> = { stdout: 0, stderr: 0 };
  private queue: Promise<unknown> = Promise.resolve();

  /** The excerpts of each stream's range (from the cursor, or as `view` asks); the cursors move. */
  next(output: ExecutionOutput, view: SnapshotView): Promise<PerStream<StreamOutput>> {
    const produced = this.queue.then(async () => {
      const { excerpts, ends } = await output.rangeSnapshots(rangeStarts(view, this.cursors));
      this.cursors = ends;
      return excerpts;
    });
    this.queue = produced.catch(() => {});
    return produced;
  }
}
