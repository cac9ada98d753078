// within(): the race of a promise against a timer that every bounded wait uses.

import { describe, expect, it } from "vitest";
import { within } from "../src/within.js";

const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("within", () => {
  it("resolves with the promise's value and leaves no timer behind", async () => {
    const before = timeouts();
    await expect(within(Promise.resolve(42), 60_000, "late")).resolves.toBe(42);
    expect(timeouts()).toBe(before);
  });

  it("resolves with the fallback once the time is up", async () => {
    const never = new Promise<number>(() => {});
    const started = performance.now();
    await expect(within(never, 50, "late")).resolves.toBe("late");
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it("rejects with the promise's error and leaves no timer behind", async () => {
    const before = timeouts();
    await expect(within(Promise.reject(new Error("boom")), 60_000, "late")).rejects.toThrow("boom");
    expect(timeouts()).toBe(before);
  });

  it("keeps the promise's value when it settles after the fallback was given", async () => {
    let resolveLater!: (value: number) => void;
    const later = new Promise<number>((resolve) => (resolveLater = resolve));
    await expect(within(later, 10, "late")).resolves.toBe("late");
    resolveLater(1); // settling afterwards changes nothing and throws nothing
    await expect(later).resolves.toBe(1);
  });
});
