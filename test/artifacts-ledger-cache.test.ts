// The published ledger keeps its sorted list while the store's set of artifacts is unchanged (so a
// publication into a store of 10,000 does not re-sort them, §16 growth), and still sees every
// change another process makes — also one that leaves the count the same (one evicted, one new).

import { rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PublishedLedger } from "../src/artifacts/ledger.js";
import { StoreLayout } from "../src/artifacts/layout.js";
import { openStoreIn, publishBytes, TempDirs } from "./artifacts-helpers.js";

const temps = new TempDirs();
afterEach(() => temps.cleanup());

async function publishedId(store: Awaited<ReturnType<typeof openStoreIn>>, text: string) {
  const outcome = await publishBytes(store, Buffer.from(text));
  if (outcome.status !== "published") throw new Error(`expected published, got ${outcome.status}`);
  return outcome.id!;
}

describe("published ledger cache", () => {
  it("sees another process's eviction and publication that keep the count the same", async () => {
    const parent = await temps.make();
    const other = await openStoreIn(parent); // "another process" sharing the directory
    try {
      const first = await publishedId(other, "one");
      const second = await publishedId(other, "two");
      const ledger = new PublishedLedger(new StoreLayout(path.join(parent, "store")));
      expect((await ledger.entries()).map((entry) => entry.id).sort()).toEqual(
        [first, second].sort(),
      );
      const cached = await ledger.entries();
      expect(await ledger.entries()).toBe(cached); // unchanged set: the same sorted list

      await rm(path.join(parent, "store", "published", first), { recursive: true });
      const third = await publishedId(other, "three");
      const after = (await ledger.entries()).map((entry) => entry.id);
      expect(after.sort()).toEqual([second, third].sort());
    } finally {
      await other.close();
    }
  });

  it("a remembered publication is listed newest last without a new listing of the old ones", async () => {
    const parent = await temps.make();
    const store = await openStoreIn(parent);
    try {
      const ids = [await publishedId(store, "a"), await publishedId(store, "b")];
      ids.push(await publishedId(store, "c"));
      const ledger = new PublishedLedger(new StoreLayout(path.join(parent, "store")));
      const listed = await ledger.entries();
      ledger.remember({
        id: "f".repeat(32),
        publishedAt: Date.now() + 1000,
        bytes: 1,
        corrupt: false,
      });
      // The remembered id is not on disk: the next listing drops it again.
      expect((await ledger.entries()).map((entry) => entry.id).sort()).toEqual(
        listed.map((entry) => entry.id).sort(),
      );
      expect(listed.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    } finally {
      await store.close();
    }
  });
});
