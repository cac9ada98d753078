// system_wait (SPEC §19): the completed result as soon as it is there, the running snapshot of
// what is new when `waitMs` passes, or as soon as a line matches `until`.

import { DEFAULT_WAIT_MS } from "../limits.js";
import { STREAMS } from "../output/types.js";
import { MatchPacer } from "../search/pacer.js";
import { compileBoundedPattern } from "../search/pattern.js";
import type { HandleRegistry } from "./handles.js";
import { LineScanner, waitForActivity } from "./live.js";
import { checkSnapshotView } from "./snapshot-range.js";
import type { ExecOptions, ExecutionReport, StreamName } from "./types.js";
import { checkWait } from "./validate-request.js";

/** What a system_wait call may ask for. */
export interface WaitRequest {
  executionId: string;
  waitMs?: number;
  until?: { pattern: string; stream?: StreamName; fromOffset?: number };
  /** §19 Revision 3: start each stream's range at these offsets instead of the cursor. */
  since?: { stdout?: number; stderr?: number };
  /** §19 Revision 3: the whole output so far instead of what is new. */
  full?: boolean;
}

async function scanners(until: NonNullable<WaitRequest["until"]>): Promise<LineScanner[]> {
  const pattern = await compileBoundedPattern(until.pattern, "until.pattern");
  const from = until.fromOffset ?? 0;
  const streams: StreamName[] = until.stream ? [until.stream] : [...STREAMS];
  return streams.map((stream) => new LineScanner(stream, from, pattern));
}

/** Waits on a handed-out execution as system_wait asks. */
export async function waitFor(
  request: WaitRequest,
  handles: HandleRegistry,
  options: ExecOptions = {},
): Promise<ExecutionReport> {
  const waitMs = checkWait(request.waitMs) ?? DEFAULT_WAIT_MS;
  const lines = request.until ? await scanners(request.until) : [];
  const execution = handles.get(request.executionId);
  const view = checkSnapshotView({ since: request.since, full: request.full }, execution.totals);
  const stopProgress = options.onProgress ? execution.onProgress(options.onProgress) : undefined;
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      if (execution.done) return execution.completedResult!;
      const pacer = new MatchPacer(deadline);
      for (const scanner of lines) {
        const match = await scanner.scan(execution, pacer);
        if (match) return await execution.snapshot(match, view);
      }
      const left = deadline - Date.now();
      if (left <= 0 || options.signal?.aborted) break;
      // Without `until` only the end matters; with it, every new readable byte is a reason to look.
      await waitForActivity(execution, left, options.signal, lines.length > 0);
    }
    return execution.completedResult ?? (await execution.snapshot(undefined, view));
  } finally {
    stopProgress?.();
  }
}
