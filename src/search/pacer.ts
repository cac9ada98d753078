// Keeps a long scan from holding the event loop: it yields after every MATCH_SLICE_MS of work and
// tells the scan when its deadline has passed (issue #14).

import { setImmediate as nextTurn } from "node:timers/promises";
import { MATCH_SLICE_MS, MIN_SCAN_MS } from "./constants.js";

export class MatchPacer {
  private sliceStart = Date.now();
  private readonly deadline: number;

  /** A scan that stops at `deadline` (ms since the epoch), but never gets less than MIN_SCAN_MS. */
  constructor(deadline = Number.POSITIVE_INFINITY) {
    this.deadline = Math.max(deadline, this.sliceStart + MIN_SCAN_MS);
  }

  /** Whether the scan's deadline has passed. */
  get expired(): boolean {
    return Date.now() >= this.deadline;
  }

  /** Yields to timers and I/O when the current slice is used up; false once the deadline passed. */
  async pace(): Promise<boolean> {
    if (Date.now() - this.sliceStart >= MATCH_SLICE_MS) {
      await nextTurn();
      this.sliceStart = Date.now();
    }
    return !this.expired;
  }
}
