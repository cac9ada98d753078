// The execution's phase (runtime/lifecycle.ts): only the diagram's transitions, in its order.

import { describe, expect, it } from "vitest";
import { Lifecycle, type Phase } from "../src/runtime/lifecycle.js";

function walk(...phases: Phase[]): Lifecycle {
  const life = new Lifecycle();
  for (const phase of phases) life.to(phase);
  return life;
}

describe("execution lifecycle", () => {
  it("goes running → draining → publishing → completed after a natural exit", () => {
    const life = walk("draining", "publishing", "completed");
    expect(life.phase).toBe("completed");
    expect(life.reached("publishing")).toBe(true);
  });

  it("goes through terminating after a stop or when leftovers are cleaned up", () => {
    const life = walk("terminating");
    expect(life.reached("publishing")).toBe(false);
    life.to("draining");
    expect(life.phase).toBe("draining");
  });

  it("refuses every other transition, naming both phases", () => {
    expect(() => walk("publishing")).toThrow(
      "execution phase: expected a transition from running, got publishing",
    );
    expect(() => walk("draining", "terminating")).toThrow(/from draining, got terminating/);
    expect(() => walk("draining", "publishing", "completed", "completed")).toThrow(
      /from completed/,
    );
  });
});
