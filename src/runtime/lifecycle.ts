// The life of one execution as one phase field (ARCHITECTURE.md, "One execution, one object"):
//
//   running ──(exit)─────────────────────────────→ draining → publishing → completed
//      │         └─(leftovers in the group)→ terminating ↗
//      └─(timeout | cancel | shutdown)──────→ terminating ↗
//
// The transitions below are the only way to change it; anything else is a bug and throws.

export type Phase = "running" | "terminating" | "draining" | "publishing" | "completed";

const TRANSITIONS: Readonly<Record<Phase, readonly Phase[]>> = {
  running: ["terminating", "draining"],
  terminating: ["draining"],
  draining: ["publishing"],
  publishing: ["completed"],
  completed: [],
};

/** The phase of one execution. */
export class Lifecycle {
  private current: Phase = "running";

  get phase(): Phase {
    return this.current;
  }

  /** Moves to `next`; throws when that is not a transition of the diagram above. */
  to(next: Phase): void {
    if (!TRANSITIONS[this.current].includes(next)) {
      throw new Error(`execution phase: expected a transition from ${this.current}, got ${next}`);
    }
    this.current = next;
  }

  /** Whether the execution is past `phase` or in it, in the diagram's order. */
  reached(phase: Phase): boolean {
    return ORDER.indexOf(this.current) >= ORDER.indexOf(phase);
  }
}

const ORDER: readonly Phase[] = ["running", "terminating", "draining", "publishing", "completed"];
