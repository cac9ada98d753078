// Spool sizes in the quota (src/artifacts/spool-usage.ts): a kept spool (its `ended` marker
// written) is read once and then taken from a cache, a running one is read at every listing, and a
// spool that is gone is never listed again — so the cache cannot make the quota count what is
// not there, nor miss what a running execution keeps writing.

import { appendFile, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StoreLayout } from "../src/artifacts/layout.js";
import { evictSpool, listSpools, markSpoolEnded } from "../src/artifacts/spool-usage.js";
import { TempDirs } from "./artifacts-helpers.js";

const temps = new TempDirs();
afterEach(() => temps.cleanup());

async function spool(layout: StoreLayout, name: string, bytes: number): Promise<string> {
  const dir = path.join(layout.stagingRoot, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "stdout"), Buffer.alloc(bytes));
  await writeFile(path.join(dir, "stderr"), Buffer.alloc(0));
  return dir;
}

const sizes = async (layout: StoreLayout) =>
  Object.fromEntries(
    (await listSpools(layout, "")).map((s) => [path.basename(s.dir), [s.bytes, s.endedAt]]),
  );

describe("spool sizes in the quota", () => {
  it("a running spool is re-read, a kept one is listed until it is gone", async () => {
    const layout = new StoreLayout(await temps.make());
    const running = await spool(layout, "running", 10);
    const kept = await spool(layout, "kept", 20);
    await markSpoolEnded(kept, 1234);
    expect(await sizes(layout)).toEqual({ running: [10, undefined], kept: [20, 1234] });

    await appendFile(path.join(running, "stdout"), Buffer.alloc(5));
    expect((await sizes(layout)).running).toEqual([15, undefined]);

    await rm(kept, { recursive: true });
    expect(await sizes(layout)).toEqual({ running: [15, undefined] });
  });

  it("an evicted kept spool is gone from the listing", async () => {
    const layout = new StoreLayout(await temps.make());
    const kept = await spool(layout, "kept", 7);
    await markSpoolEnded(kept, 99);
    const [entry] = await listSpools(layout, "");
    expect(await evictSpool(entry!)).toBe(true);
    expect(await listSpools(layout, "")).toEqual([]);
  });
});
