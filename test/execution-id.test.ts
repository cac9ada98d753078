// Execution ids (SPEC §4): 32 lowercase hex characters, 128 random bits, never repeated, also
// across the refills of the random block they are cut from.

import { describe, expect, it } from "vitest";
import { newExecutionId } from "../src/runtime/execution-id.js";

describe("newExecutionId", () => {
  it("gives 32 lowercase hex characters, all different, across several refills", () => {
    const ids = Array.from({ length: 1000 }, () => newExecutionId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses every bit: each hex position takes many values", () => {
    const ids = Array.from({ length: 600 }, () => newExecutionId());
    for (let position = 0; position < 32; position++) {
      const seen = new Set(ids.map((id) => id[position]));
      expect(seen.size, `position ${position}`).toBeGreaterThan(10);
    }
  });
});
