// Planted files never wedge the artifact store (#14): FIFOs, symlinks and odd entries where the
// store expects its own regular files and directories are refused at once, never waited on, and
// a lock step that cannot write reports WRITE_FAILED and leaves nothing behind.

import { execFileSync, spawnSync } from "node:child_process";
import { constants, openSync, closeSync } from "node:fs";
import { cp, mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import { openStoreIn, publishBytes, TempDirs, transpileStore } from "./artifacts-helpers.js";

/** A call that must settle well before this is taken for a hang. */
const HANG_MS = 3000;

/** Resolves to the promise's outcome, or rejects when it takes longer than HANG_MS. */
async function settled<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    const [outcome] = await Promise.race([Promise.allSettled([promise]), hang]);
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

function mkfifo(file: string): void {
  execFileSync("mkfifo", ["-m", "600", file]);
}

/** Releases any reader blocked on a FIFO (only matters when the code under test opened it). */
function unwedge(fifo: string): void {
  for (let i = 0; i < 8; i += 1) {
    try {
      closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    } catch {
      return;
    }
  }
}

describe("planted files in the artifact store", () => {
  const temp = new TempDirs();
  const stores: ArtifactStore[] = [];
  const fifos: string[] = [];

  async function open(parent?: string) {
    const store = await openStoreIn(parent ?? (await temp.make()));
    stores.push(store);
    return store;
  }

  async function publish(store: ArtifactStore, text: string) {
    const outcome = await publishBytes(store, Buffer.from(text), Buffer.from("e"));
    expect(outcome).toMatchObject({ status: "published" });
    return outcome.id!;
  }

  function published(store: ArtifactStore, id: string, file = ""): string {
    return path.join(store.directory, "published", id, file);
  }

  afterEach(async () => {
    for (const fifo of fifos.splice(0)) unwedge(fifo);
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await temp.cleanup();
  });

  it("refuses a FIFO stdout at once; five such reads do not stall real ones", async () => {
    const store = await open();
    const bad = await publish(store, "x");
    const good = await publish(store, "good bytes");
    await rm(published(store, bad, "stdout"));
    mkfifo(published(store, bad, "stdout"));
    fifos.push(published(store, bad, "stdout"));
    const reads = await Promise.all(
      Array.from({ length: 5 }, () => settled(store.read(bad, "stdout", 0, 10, "utf8"))),
    );
    for (const read of reads) {
      expect(read.status).toBe("rejected");
      expect((read as PromiseRejectedResult).reason).toMatchObject({ code: "ARTIFACT_NOT_FOUND" });
    }
    const after = await settled(store.read(good, "stdout", 0, 100, "utf8"));
    expect(after).toMatchObject({ status: "fulfilled", value: { text: "good bytes" } });
  });

  it("a FIFO meta.json neither hangs publication nor holds the lock from a second store", async () => {
    const parent = await temp.make();
    const store = await open(parent);
    const bad = await publish(store, "x");
    await rm(published(store, bad, "meta.json"));
    mkfifo(published(store, bad, "meta.json"));
    fifos.push(published(store, bad, "meta.json"));
    const read = await settled(store.read(bad, "stdout", 0, 10, "utf8"));
    expect((read as PromiseRejectedResult).reason).toMatchObject({ code: "ARTIFACT_NOT_FOUND" });
    const first = await settled(publishBytes(store, Buffer.from("one")));
    expect(first).toMatchObject({ status: "fulfilled", value: { status: "published" } });
    const second = await open(parent);
    const other = await settled(publishBytes(second, Buffer.from("two")));
    expect(other).toMatchObject({ status: "fulfilled", value: { status: "published" } });
  });

  it("does not serve a published/<id> that is a symlink to a directory outside the store", async () => {
    const store = await open();
    const id = await publish(store, "inside");
    const outside = path.join(await temp.make(), "outside");
    await cp(published(store, id), outside, { recursive: true });
    await writeFile(path.join(outside, "stdout"), "SECRET"); // same size as "inside"
    await rm(published(store, id), { recursive: true });
    await symlink(outside, published(store, id));
    await expect(store.read(id, "stdout", 0, 100, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
  });

  it("does not serve a stdout (or stderr) that is a symlink to a file outside the store", async () => {
    const store = await open();
    const id = await publish(store, "inside");
    const outside = path.join(await temp.make(), "secret");
    await writeFile(outside, "SECRET");
    await rm(published(store, id, "stdout"));
    await symlink(outside, published(store, id, "stdout"));
    await expect(store.read(id, "stdout", 0, 100, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
    await expect(store.read(id, "stderr", 0, 100, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
  });

  for (const plant of ["directory", "dangling symlink", "FIFO"] as const) {
    it(`a planted store.lock ${plant} is cleared without spinning; publication goes on`, async () => {
      const parent = await temp.make();
      const store = await open(parent);
      const lock = path.join(store.directory, "store.lock");
      if (plant === "directory") await mkdir(path.join(lock, "inner"), { recursive: true });
      if (plant === "dangling symlink") await symlink(path.join(parent, "nowhere"), lock);
      if (plant === "FIFO") {
        mkfifo(lock);
        fifos.push(lock);
      }
      const cpu = process.cpuUsage();
      const outcome = await settled(publishBytes(store, Buffer.from("after the plant")));
      const used = process.cpuUsage(cpu);
      expect(outcome).toMatchObject({ status: "fulfilled", value: { status: "published" } });
      // A busy-wait until the 500 ms lock timeout burns ~all of it; a clean break takes a few ms.
      expect((used.user + used.system) / 1000).toBeLessThan(250);
      const names = await readdir(store.directory);
      expect(names.filter((name) => name.startsWith("store.lock"))).toEqual([]);
    });
  }

  it.skipIf(process.platform === "win32")(
    "a lock step that cannot write reports WRITE_FAILED and leaves no temporary lock file",
    async () => {
      const parent = await temp.make();
      const built = await transpileStore(path.join(parent, "js"));
      const storeDir = path.join(parent, "store");
      await (await open(parent)).close();
      // File writes beyond 0 bytes fail (EFBIG, as on a full disk) but files can be created; an
      // empty artifact spools nothing, so the first write is the lock's temporary file.
      const script = `
        const { openArtifactStore } = await import(${JSON.stringify(pathToFileURL(path.join(built, "artifacts/store.js")).href)});
        const store = await openArtifactStore({ dir: ${JSON.stringify(storeDir)}, retentionMs: 86400000, quotaBytes: 1 << 30, maxStreamBytes: 1 << 20 });
        const staging = await store.createStaging();
        const outcome = await staging.publish({ stdout: 0, stderr: 0 });
        process.stdout.write(JSON.stringify(outcome));
        await store.close();`;
      const child = spawnSync(
        "/bin/sh",
        [
          "-c",
          `trap '' XFSZ; ulimit -f 0; exec "$0" --input-type=module -e "$1"`,
          process.execPath,
          script,
        ],
        { encoding: "utf8", timeout: 20_000 },
      );
      expect(child.stderr).toBe("");
      expect(JSON.parse(child.stdout)).toEqual({ status: "unavailable", reason: "WRITE_FAILED" });
      const names = await readdir(storeDir);
      expect(names.filter((name) => name.startsWith("store.lock"))).toEqual([]);
    },
  );
});
