// Concurrency slots (SPEC §6.6, §19): foreground and background lanes, each with its own limit.
// Overflow is refused at once, never queued. A slot is held from validation until the execution's
// tree has ended (also after it yielded), and is released exactly once.

import { CommandError } from "../errors.js";
import type { HandleRegistry } from "./handles.js";

export type Lane = "foreground" | "background";

/** One held slot; `release` is idempotent. */
export interface Slot {
  release(): void;
}

/** The slots of one runtime. */
export class Slots {
  private readonly inUse: Record<Lane, number> = { foreground: 0, background: 0 };

  constructor(
    private readonly limits: Record<Lane, number>,
    private readonly handles: HandleRegistry,
  ) {}

  /** Takes a slot in `lane`, or throws CONCURRENCY_LIMIT / BACKGROUND_LIMIT. */
  take(lane: Lane): Slot {
    const max = this.limits[lane];
    if (this.inUse[lane] >= max) throw this.full(lane, max);
    this.inUse[lane]++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inUse[lane]--;
      },
    };
  }

  private full(lane: Lane, max: number): CommandError {
    if (lane === "background") {
      return new CommandError(
        "BACKGROUND_LIMIT",
        `${max} background executions are already running (--max-background-executions); ` +
          `cancel one with system_cancel or wait for one to end`,
      );
    }
    const yielded = this.handles
      .running()
      .filter((e) => !e.background)
      .map((e) => e.id);
    const note = yielded.length
      ? `; yielded executions still running: ${yielded.join(", ")} ` +
        `(system_wait or system_cancel them)`
      : "";
    return new CommandError(
      "CONCURRENCY_LIMIT",
      `${max} executions are already running (--max-concurrent-executions); ` +
        `wait for one to finish and retry${note}`,
    );
  }
}
