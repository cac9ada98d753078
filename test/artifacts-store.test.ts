// The artifact store on disk (SPEC §8, §17): ids, expiry, corruption, caps, quota, retention,
// private directories and modes, locking.

import { chmod, chown, mkdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultArtifactDir } from "../src/artifacts/default-dir.js";
import { openArtifactStore, type ArtifactStore } from "../src/artifacts/store.js";
import { listDir, openStoreIn, publishBytes, storeOptions, TempDirs } from "./artifacts-helpers.js";

const isPosix = process.platform !== "win32";
const isRoot = process.getuid?.() === 0;
const HOUR = 3_600_000;

describe("artifact store", () => {
  const temp = new TempDirs();
  const stores: ArtifactStore[] = [];

  async function open(overrides: Parameters<typeof openStoreIn>[1] = {}) {
    const parent = await temp.make();
    const store = await openStoreIn(parent, overrides);
    stores.push(store);
    return store;
  }

  async function publishText(store: ArtifactStore, stdout: string, stderr = "") {
    const outcome = await publishBytes(store, Buffer.from(stdout), Buffer.from(stderr));
    expect(outcome).toMatchObject({ status: "published" });
    return outcome.id!;
  }

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await temp.cleanup();
  });

  it("publishes under a fresh 32-hex id with metadata of sizes and time only", async () => {
    let clock = 1_000_000;
    const store = await open({ now: () => clock });
    const id = await publishText(store, "out", "error!");
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const metadata = JSON.parse(
      await readFile(path.join(store.directory, "published", id, "meta.json"), "utf8"),
    );
    expect(metadata).toEqual({
      version: 1,
      publishedAt: 1_000_000,
      stdoutBytes: 3,
      stderrBytes: 6,
    });
    expect(await listDir(path.join(store.directory, "staging"))).toEqual([]);
    expect(await store.read(id, "stderr", 0, 100, "utf8")).toMatchObject({ text: "error!" });
    clock += 1;
    expect(await publishText(store, "x")).not.toBe(id);
  });

  it("answers ARTIFACT_NOT_FOUND for unknown and malformed ids", async () => {
    const store = await open();
    const ids = [
      "0123456789abcdef0123456789abcdef",
      "../../etc/passwd",
      "0123456789ABCDEF0123456789ABCDEF",
      "0123456789abcdef0123456789abcde",
      "",
      "0123456789abcdef0123456789abcdef/../x",
    ];
    for (const id of ids) {
      await expect(store.read(id, "stdout", 0, 10, "utf8")).rejects.toMatchObject({
        code: "ARTIFACT_NOT_FOUND",
      });
    }
  });

  it("expires artifacts by publication time; reads do not extend retention", async () => {
    let clock = 5_000;
    const store = await open({ retentionMs: HOUR, now: () => clock });
    const id = await publishText(store, "kept for an hour");
    clock += HOUR - 1;
    for (let i = 0; i < 3; i += 1) {
      await expect(store.read(id, "stdout", 0, 10, "utf8")).resolves.toMatchObject({ bytes: 10 });
    }
    clock += 1;
    await expect(store.read(id, "stdout", 0, 10, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
      message: expect.stringContaining("expired"),
    });
  });

  it("sweeps expired artifacts from disk at publication and at open", async () => {
    let clock = 0;
    const parent = await temp.make();
    const first = await openStoreIn(parent, { retentionMs: HOUR, now: () => clock });
    stores.push(first);
    const old = await publishText(first, "old");
    clock = HOUR;
    const newer = await publishText(first, "newer");
    const published = path.join(first.directory, "published");
    expect(await listDir(published)).toEqual([newer]);
    clock = 2 * HOUR;
    const second = await openStoreIn(parent, { retentionMs: HOUR, now: () => clock });
    stores.push(second);
    expect(await listDir(published)).toEqual([]);
    expect(old).not.toBe(newer);
  });

  it("answers ARTIFACT_NOT_FOUND for corrupt artifacts", async () => {
    const store = await open();
    const truncated = await publishText(store, "0123456789", "err");
    await truncate(path.join(store.directory, "published", truncated, "stdout"), 4);
    const garbled = await publishText(store, "0123456789");
    await writeFile(path.join(store.directory, "published", garbled, "meta.json"), "{not json");
    const otherStream = await publishText(store, "0123456789", "err");
    await truncate(path.join(store.directory, "published", otherStream, "stderr"), 1);
    const lying = await publishText(store, "0123456789");
    const meta = path.join(store.directory, "published", lying, "meta.json");
    const metadata = JSON.parse(await readFile(meta, "utf8"));
    await writeFile(meta, JSON.stringify({ ...metadata, stdoutBytes: 99 }));
    for (const id of [truncated, garbled, otherStream, lying]) {
      await expect(store.read(id, "stdout", 0, 4, "utf8")).rejects.toMatchObject({
        code: "ARTIFACT_NOT_FOUND",
      });
    }
  });

  it("refuses a stream past the cap with STREAM_CAP and removes its staging", async () => {
    const store = await open({ maxStreamBytes: 1000 });
    const capped = await publishBytes(store, Buffer.alloc(1001), Buffer.alloc(10));
    expect(capped).toEqual({ status: "unavailable", reason: "STREAM_CAP" });
    const exact = await publishBytes(store, Buffer.alloc(10), Buffer.alloc(1000));
    expect(exact).toMatchObject({ status: "published" });
    const staging = await store.createStaging();
    staging.write("stdout", Buffer.alloc(500));
    // The sink saw more than the cap even if fewer bytes reached the spool.
    expect(await staging.publish({ stdout: 1500, stderr: 0 })).toEqual({
      status: "unavailable",
      reason: "STREAM_CAP",
    });
    expect(await listDir(path.join(store.directory, "staging"))).toEqual([]);
  });

  it("refuses to publish a spool that misses bytes the sink saw (WRITE_FAILED)", async () => {
    const store = await open();
    const staging = await store.createStaging();
    staging.write("stdout", Buffer.from("abc"));
    expect(await staging.publish({ stdout: 5, stderr: 0 })).toEqual({
      status: "unavailable",
      reason: "WRITE_FAILED",
    });
  });

  it("turns a failing spool into WRITE_FAILED without throwing", async () => {
    const store = await open();
    const staging = await store.createStaging();
    // The staging directory vanishes before the spool files are opened.
    await rm(path.join(store.directory, "staging"), { recursive: true, force: true });
    expect(staging.write("stdout", Buffer.from("lost"))).toBe(true);
    await staging.drained("stdout");
    staging.write("stdout", Buffer.from(" too"));
    expect(await staging.publish({ stdout: 8, stderr: 0 })).toEqual({
      status: "unavailable",
      reason: "WRITE_FAILED",
    });
    // The store recreates its staging directory for the next execution.
    expect((await publishBytes(store, Buffer.from("fine"))).status).toBe("published");
  });

  it("evicts the oldest artifacts first to fit the quota, and refuses one larger than it", async () => {
    let clock = 0;
    const store = await open({ quotaBytes: 3000, now: () => clock });
    const ids: string[] = [];
    for (const size of [1000, 1000, 1000]) {
      clock += 10;
      const outcome = await publishBytes(store, Buffer.alloc(size - 100), Buffer.alloc(100));
      ids.push(outcome.id!);
    }
    clock += 10;
    const big = await publishBytes(store, Buffer.alloc(1500));
    expect(big.status).toBe("published");
    for (const gone of ids.slice(0, 2)) {
      await expect(store.read(gone, "stdout", 0, 1, "base64")).rejects.toMatchObject({
        code: "ARTIFACT_NOT_FOUND",
      });
    }
    await expect(store.read(ids[2]!, "stdout", 0, 1, "base64")).resolves.toMatchObject({
      bytes: 1,
    });
    expect(await publishBytes(store, Buffer.alloc(3000), Buffer.alloc(1))).toEqual({
      status: "unavailable",
      reason: "QUOTA",
    });
    expect((await listDir(path.join(store.directory, "published"))).sort()).toEqual(
      [ids[2]!, big.id!].sort(),
    );
    expect(await listDir(path.join(store.directory, "trash"))).toEqual([]);
  });

  it("counts spools toward the quota and never evicts them (§19)", async () => {
    let clock = 0;
    const store = await open({ quotaBytes: 3000, now: () => clock });
    clock += 10;
    const old = await publishBytes(store, Buffer.alloc(1000));
    // A spool still being written (a running execution or a kept handle) holds 1500 bytes.
    const running = await store.createStaging();
    running.write("stdout", Buffer.alloc(1500));
    await running.drained("stdout");
    await running.end();
    clock += 10;
    // 1000 published + 1500 spooled + 1000 new > 3000: the oldest published artifact goes.
    const next = await publishBytes(store, Buffer.alloc(1000));
    expect(next.status).toBe("published");
    await expect(store.read(old.id!, "stdout", 0, 1, "base64")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
    // Even with every published artifact evicted, 1600 bytes do not fit beside the spool.
    expect(await publishBytes(store, Buffer.alloc(1600))).toEqual({
      status: "unavailable",
      reason: "QUOTA",
    });
    // …and the refused publication evicted nothing.
    await expect(store.read(next.id!, "stdout", 0, 1, "base64")).resolves.toMatchObject({
      bytes: 1,
    });
    const live = await running.readLive("stdout", 0, 10, "base64");
    expect(live.bytes).toBe(10);
    await running.discard();
    expect((await publishBytes(store, Buffer.alloc(1600))).status).toBe("published");
  });

  it("evicts kept spools of ended handles oldest first, together with artifacts (§19)", async () => {
    let clock = 0;
    const store = await open({ quotaBytes: 3000, now: () => clock });
    clock += 10;
    const kept = await store.createStaging();
    kept.write("stdout", Buffer.alloc(1200));
    await kept.drained("stdout");
    await kept.keep(); // ended at t=10, kept for live reads
    clock += 10;
    const artifact = await publishBytes(store, Buffer.alloc(1200)); // t=20
    clock += 10;
    // 1200 kept + 1200 published + 1000 new > 3000: the oldest (the kept spool) goes first.
    const next = await publishBytes(store, Buffer.alloc(1000));
    expect(next.status).toBe("published");
    await expect(kept.readLive("stdout", 0, 10, "base64")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
    await expect(store.read(artifact.id!, "stdout", 0, 1, "base64")).resolves.toMatchObject({
      bytes: 1,
    });
    await kept.discard();
  });

  it("creates the store 0700 with 0600 files even under a permissive umask", async () => {
    if (!isPosix) return;
    const previous = process.umask(0);
    try {
      const store = await open();
      const id = await publishText(store, "private", "too");
      for (const dir of ["", "staging", "published", "trash", `published/${id}`]) {
        expect((await stat(path.join(store.directory, dir))).mode & 0o777).toBe(0o700);
      }
      for (const file of ["stdout", "stderr", "meta.json"]) {
        const info = await stat(path.join(store.directory, "published", id, file));
        expect(info.mode & 0o777).toBe(0o600);
      }
    } finally {
      process.umask(previous);
    }
  });

  it.skipIf(!isPosix)(
    "refuses an existing group- or world-accessible directory without chmod",
    async () => {
      for (const mode of [0o750, 0o701, 0o777]) {
        const dir = path.join(await temp.make(), "store");
        await mkdir(dir);
        await chmod(dir, mode);
        const store = await openArtifactStore(storeOptions(dir));
        stores.push(store);
        expect(store.unavailableReason()).toBe("STORE_UNAVAILABLE");
        expect(store.unavailableDetail()).toContain("mode");
        expect((await stat(dir)).mode & 0o777).toBe(mode);
        const staging = await store.createStaging();
        staging.write("stdout", Buffer.from("still fine"));
        expect(await staging.publish({ stdout: 10, stderr: 0 })).toEqual({
          status: "unavailable",
          reason: "STORE_UNAVAILABLE",
        });
        expect(await listDir(dir)).toEqual([]);
      }
    },
  );

  it("is unavailable when the directory cannot be created", async () => {
    const parent = await temp.make();
    await writeFile(path.join(parent, "file"), "not a directory");
    const store = await openArtifactStore(storeOptions(path.join(parent, "file", "store")));
    stores.push(store);
    expect(store.unavailableReason()).toBe("STORE_UNAVAILABLE");
    await expect(
      store.read("0123456789abcdef0123456789abcdef", "stdout", 0, 1, "utf8"),
    ).rejects.toMatchObject({ code: "ARTIFACT_NOT_FOUND" });
  });

  it.skipIf(!isPosix || isRoot)("is unavailable when the directory is not writable", async () => {
    const dir = path.join(await temp.make(), "store");
    await mkdir(dir);
    await chmod(dir, 0o500);
    const store = await openArtifactStore(storeOptions(dir));
    stores.push(store);
    expect(store.unavailableReason()).toBe("STORE_UNAVAILABLE");
    await chmod(dir, 0o700);
  });

  it.skipIf(!isPosix || !isRoot)("refuses a directory owned by another user", async () => {
    const dir = path.join(await temp.make(), "store");
    await mkdir(dir, { mode: 0o700 });
    await chown(dir, 12345, 12345);
    const store = await openArtifactStore(storeOptions(dir));
    stores.push(store);
    expect(store.unavailableReason()).toBe("STORE_UNAVAILABLE");
    expect(store.unavailableDetail()).toContain("uid 12345");
  });

  it("defaults to the per-user cache directory of each platform", async () => {
    const home = "/home/u";
    expect(defaultArtifactDir({}, "linux", home)).toBe(
      "/home/u/.cache/system-command-mcp/artifacts",
    );
    expect(defaultArtifactDir({ XDG_CACHE_HOME: "/x/cache" }, "linux", home)).toBe(
      "/x/cache/system-command-mcp/artifacts",
    );
    expect(defaultArtifactDir({ XDG_CACHE_HOME: "relative" }, "linux", home)).toBe(
      "/home/u/.cache/system-command-mcp/artifacts",
    );
    expect(defaultArtifactDir({ XDG_CACHE_HOME: "/x" }, "darwin", "/Users/u")).toBe(
      "/Users/u/Library/Caches/system-command-mcp/artifacts",
    );
    expect(
      defaultArtifactDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u"),
    ).toBe("C:\\Users\\u\\AppData\\Local\\system-command-mcp\\artifacts");
    const cache = await temp.make();
    const store = await openArtifactStore({
      ...storeOptions(""),
      dir: undefined,
      env: { XDG_CACHE_HOME: cache },
      platform: "linux",
      homeDir: "/nonexistent",
    });
    stores.push(store);
    expect(store.directory).toBe(path.join(cache, "system-command-mcp", "artifacts"));
    expect(store.unavailableReason()).toBeNull();
  });

  it("breaks a lock left by a dead owner and times out on a live one (LOCK_TIMEOUT)", async () => {
    const store = await open();
    const lockFile = path.join(store.directory, "store.lock");
    const dead = { pid: 2 ** 22 + 12345, start: "L1", nonce: "00" };
    await writeFile(lockFile, JSON.stringify(dead));
    expect((await publishBytes(store, Buffer.from("after a crash"))).status).toBe("published");
    expect(await listDir(store.directory)).not.toContain("store.lock");
    const alive = await readOwnLockContent();
    await writeFile(lockFile, JSON.stringify(alive));
    const started = Date.now();
    const outcome = await publishBytes(store, Buffer.from("blocked"));
    expect(outcome).toEqual({ status: "unavailable", reason: "LOCK_TIMEOUT" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await listDir(path.join(store.directory, "staging"))).toEqual([]);
    expect(await readFile(lockFile, "utf8")).toBe(JSON.stringify(alive));
  });

  it("removes lock temporaries and staging of dead owners at open, keeps young strays", async () => {
    const parent = await temp.make();
    const first = await openStoreIn(parent);
    stores.push(first);
    const deadPid = 2 ** 22 + 777;
    const litter = [`store.lock.tmp-${deadPid}-L5-ab12`, `store.lock.broken-${deadPid}-L5-cd34`];
    for (const name of litter) await writeFile(path.join(first.directory, name), "{}");
    const deadStaging = `${deadPid}-L5-${"a".repeat(32)}`;
    await mkdir(path.join(first.directory, "staging", deadStaging, "x"), { recursive: true });
    await mkdir(path.join(first.directory, "staging", "not-ours"));
    await mkdir(path.join(first.directory, "trash", "leftover"));
    stores.push(await openStoreIn(parent));
    const names = await listDir(first.directory);
    expect(names.filter((name) => name.startsWith("store.lock"))).toEqual([]);
    expect(await listDir(path.join(first.directory, "staging"))).toEqual(["not-ours"]);
    expect(await listDir(path.join(first.directory, "trash"))).toEqual([]);
  });

  it("discards staging data, and close() discards unfinished stagings", async () => {
    const store = await open();
    const stagingRoot = path.join(store.directory, "staging");
    const dropped = await store.createStaging();
    dropped.write("stdout", Buffer.alloc(100_000, 1));
    await dropped.discard();
    expect(await listDir(stagingRoot)).toEqual([]);
    const abandoned = await store.createStaging();
    abandoned.write("stderr", Buffer.from("running"));
    expect(await listDir(stagingRoot)).toHaveLength(1);
    await store.close();
    expect(await listDir(stagingRoot)).toEqual([]);
    expect(await abandoned.publish({ stdout: 0, stderr: 7 })).toEqual({ status: "discarded" });
  });
});

/** A lock content naming this (live) process. */
async function readOwnLockContent() {
  const { currentOwner } = await import("../src/artifacts/owner.js");
  const owner = await currentOwner();
  return { pid: owner.pid, start: owner.start, nonce: "ffff" };
}
