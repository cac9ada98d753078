// Several server processes sharing one store (SPEC §8, §17): concurrent publication and reading
// lose or corrupt nothing, the quota holds, and what a killed process leaves behind is recovered.

import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import { listDir, openStoreIn, readWhole, TempDirs, transpileStore } from "./artifacts-helpers.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const READY_TIMEOUT_MS = 20_000;

// The child: opens the store and publishes, or holds a staging or the lock until killed.
const CHILD_SOURCE = String.raw`
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [moduleDir, mode, storeDir, count, maxSize, quota] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(moduleDir, "artifacts", file)).href);
const { openArtifactStore } = await load("store.js");
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");
const say = (value) => process.stdout.write(JSON.stringify(value) + "\n");
const options = {
  dir: storeDir,
  retentionMs: 86400000,
  quotaBytes: Number(quota || 1073741824),
  maxStreamBytes: 104857600,
};
const hang = () => setInterval(() => {}, 1000);

if (mode === "publish") {
  const store = await openArtifactStore(options);
  for (let i = 0; i < Number(count); i += 1) {
    const stdout = randomBytes(1 + Math.floor(Math.random() * Number(maxSize)));
    const stderr = randomBytes(Math.floor(stdout.length / 3));
    const staging = await store.createStaging();
    for (const [stream, bytes] of [["stdout", stdout], ["stderr", stderr]]) {
      for (let at = 0; at < bytes.length; at += 65536) {
        if (!staging.write(stream, bytes.subarray(at, at + 65536))) await staging.drained(stream);
      }
    }
    const outcome = await staging.publish({ stdout: stdout.length, stderr: stderr.length });
    let readBack = "skipped";
    if (outcome.status === "published") {
      try {
        const parts = [];
        for (let offset = 0, eof = stdout.length === 0; !eof; ) {
          const page = await store.read(outcome.id, "stdout", offset, 131072, "base64");
          parts.push(Buffer.from(page.base64, "base64"));
          offset = page.nextOffset;
          eof = page.eof;
        }
        readBack = sha(Buffer.concat(parts)) === sha(stdout) ? "ok" : "corrupt";
      } catch (error) {
        readBack = error.code === "ARTIFACT_NOT_FOUND" ? "evicted" : "error " + error.message;
      }
    }
    say({ ...outcome, stdoutSha: sha(stdout), stderrSha: sha(stderr), size: stdout.length + stderr.length, readBack });
  }
  await store.close();
  say({ done: true });
} else if (mode === "hold-staging") {
  const store = await openArtifactStore(options);
  const staging = await store.createStaging();
  staging.write("stdout", Buffer.alloc(100000, 1));
  while (staging.spooledBytes("stdout") < 100000) await new Promise((r) => setTimeout(r, 5));
  say({ ready: true, id: staging.id });
  hang();
} else if (mode === "hold-lock") {
  const { acquireStoreLock } = await load("lock.js");
  const lock = await acquireStoreLock(path.join(storeDir, "store.lock"), 5000);
  say({ ready: lock !== null });
  hang();
}
`;

interface ChildLine {
  status?: string;
  id?: string;
  reason?: string;
  stdoutSha?: string;
  stderrSha?: string;
  size?: number;
  readBack?: string;
  done?: boolean;
  ready?: boolean;
}

describe("a store shared by several processes", () => {
  const temp = new TempDirs();
  const children: ChildProcess[] = [];
  const stores: ArtifactStore[] = [];
  let moduleDir: string;
  let childScript: string;

  beforeAll(async () => {
    const buildDir = await temp.make("scm-artifacts-build-");
    moduleDir = await transpileStore(buildDir);
    childScript = path.join(buildDir, "child.mjs");
    await writeFile(childScript, CHILD_SOURCE);
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  afterAll(() => temp.cleanup());

  /** Starts a child; `lines` collects its JSON lines, `exited` resolves with its exit code. */
  function start(args: string[]) {
    const child = spawn(process.execPath, [childScript, moduleDir, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const lines: ChildLine[] = [];
    const waiters: Array<() => void> = [];
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(JSON.parse(line) as ChildLine);
      waiters.splice(0).forEach((wake) => wake());
    });
    const exited = new Promise<number | null>((resolve) => {
      child.on("exit", (code) => {
        waiters.splice(0).forEach((wake) => wake());
        resolve(code);
      });
    });
    const ready = async () => {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (!lines.some((line) => line.ready !== undefined)) {
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`child did not get ready: ${stderr}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return lines.find((line) => line.ready !== undefined)!;
    };
    return { child, lines, exited, ready, stderr: () => stderr };
  }

  async function verifyPublished(store: ArtifactStore, line: ChildLine): Promise<void> {
    const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    const out = await readWhole(store, line.id!, "stdout", "base64", MiB);
    const err = await readWhole(store, line.id!, "stderr", "base64", 300 * KiB);
    expect(sha(out.bytes)).toBe(line.stdoutSha);
    expect(sha(err.bytes)).toBe(line.stderrSha);
  }

  it("publishes and reads from two processes at once without loss or corruption", async () => {
    const storeParent = await temp.make();
    const storeDir = path.join(storeParent, "store");
    const runs = [0, 1].map(() => start(["publish", storeDir, "25", String(300 * KiB)]));
    const codes = await Promise.all(runs.map((run) => run.exited));
    expect(codes, runs.map((run) => run.stderr()).join("\n")).toEqual([0, 0]);
    const published = runs.flatMap((run) => run.lines.filter((line) => line.status));
    expect(published).toHaveLength(50);
    expect(published.filter((line) => line.status !== "published")).toEqual([]);
    expect(published.filter((line) => line.readBack !== "ok")).toEqual([]);
    const store = await openStoreIn(storeParent);
    stores.push(store);
    for (const line of published) await verifyPublished(store, line);
    expect((await listDir(path.join(storeDir, "published"))).length).toBe(50);
    expect(await listDir(path.join(storeDir, "staging"))).toEqual([]);
  });

  it("keeps the quota when two processes evict concurrently, and survivors stay intact", async () => {
    const storeParent = await temp.make();
    const storeDir = path.join(storeParent, "store");
    const quota = 3 * MiB;
    const args = ["publish", storeDir, "30", String(400 * KiB), String(quota)];
    const runs = [0, 1].map(() => start(args));
    const codes = await Promise.all(runs.map((run) => run.exited));
    expect(codes, runs.map((run) => run.stderr()).join("\n")).toEqual([0, 0]);
    const lines = runs.flatMap((run) => run.lines.filter((line) => line.status));
    expect(lines.filter((line) => line.status !== "published")).toEqual([]);
    expect(lines.filter((line) => !["ok", "evicted"].includes(line.readBack!))).toEqual([]);
    const store = await openStoreIn(storeParent, { quotaBytes: quota });
    stores.push(store);
    const survivors = await listDir(path.join(storeDir, "published"));
    expect(survivors.length).toBeGreaterThan(0);
    let total = 0;
    for (const id of survivors) {
      const meta = JSON.parse(
        await readFile(path.join(storeDir, "published", id, "meta.json"), "utf8"),
      );
      total += meta.stdoutBytes + meta.stderrBytes;
      await verifyPublished(
        store,
        lines.find((line) => line.id === id)!,
      );
    }
    expect(total).toBeLessThanOrEqual(quota);
    expect(await listDir(path.join(storeDir, "staging"))).toEqual([]);
  });

  it("keeps a live process's staging and removes it at the next open once it was killed", async () => {
    const storeParent = await temp.make();
    const stagingRoot = path.join(storeParent, "store", "staging");
    const run = start(["hold-staging", path.join(storeParent, "store")]);
    const ready = await run.ready();
    const held = await listDir(stagingRoot);
    expect(held).toHaveLength(1);
    expect(held[0]).toContain(ready.id);
    expect(held[0]!.startsWith(`${run.child.pid}-`)).toBe(true);
    stores.push(await openStoreIn(storeParent));
    expect(await listDir(stagingRoot)).toEqual(held);
    run.child.kill("SIGKILL");
    await run.exited;
    stores.push(await openStoreIn(storeParent));
    expect(await listDir(stagingRoot)).toEqual([]);
  });

  it("times out on a lock held by a live process and breaks it once that process died", async () => {
    const storeParent = await temp.make();
    const store = await openStoreIn(storeParent);
    stores.push(store);
    const run = start(["hold-lock", store.directory]);
    expect((await run.ready()).ready).toBe(true);
    const staging = await store.createStaging();
    staging.write("stdout", Buffer.from("x"));
    expect(await staging.publish({ stdout: 1, stderr: 0 })).toEqual({
      status: "unavailable",
      reason: "LOCK_TIMEOUT",
    });
    run.child.kill("SIGKILL");
    await run.exited;
    const retry = await store.createStaging();
    retry.write("stdout", Buffer.from("y"));
    expect(await retry.publish({ stdout: 1, stderr: 0 })).toMatchObject({ status: "published" });
    const litter = (await listDir(store.directory)).filter((name) => name.startsWith("store.lock"));
    expect(litter).toEqual([]);
  });
});
