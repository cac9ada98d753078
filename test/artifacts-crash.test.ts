// Publication is crash-consistent (SPEC §8, §17): the metadata is written before the rename that
// publishes, and a process killed between the two leaves nothing readable; a published directory
// without its metadata is never served either.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ArtifactStore } from "../src/artifacts/store.js";
import { METADATA_FILE, newArtifactId, streamFile } from "../src/artifacts/layout.js";
import { openStoreIn, storeOptions, TempDirs, transpileStore } from "./artifacts-helpers.js";
import { openArtifactStore } from "../src/artifacts/store.js";

const CHILD_TIMEOUT_MS = 20_000;

// The child publishes one artifact; the rename into published/ is replaced by a report of what
// the staging directory holds at that moment, then SIGKILL (the crash between the two steps).
const CHILD_SOURCE = String.raw`
import fs from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [moduleDir, storeDir, metaFile] = process.argv.slice(2);
const { openArtifactStore } = await import(pathToFileURL(path.join(moduleDir, "artifacts", "store.js")).href);
const store = await openArtifactStore({ dir: storeDir, retentionMs: 86400000, quotaBytes: 1 << 30, maxStreamBytes: 1 << 26 });
const staging = await store.createStaging();
staging.write("stdout", Buffer.alloc(1000, 0x78));
const rename = fs.rename;
fs.rename = async (from, to) => {
  if (path.basename(path.dirname(to)) !== "published") return rename(from, to);
  const files = readdirSync(from).sort();
  const metadata = files.includes(metaFile) ? JSON.parse(readFileSync(path.join(from, metaFile), "utf8")) : null;
  process.stdout.write(JSON.stringify({ id: staging.id, files, metadata }) + "\n", () => process.kill(process.pid, "SIGKILL"));
  await new Promise(() => {});
};
syncBuiltinESMExports();
await staging.publish({ stdout: 1000, stderr: 0 });
process.stdout.write(JSON.stringify({ published: true }) + "\n");
`;

describe("crash-consistent publication", () => {
  const temp = new TempDirs();
  const stores: ArtifactStore[] = [];
  let moduleDir: string;
  let childScript: string;

  beforeAll(async () => {
    const buildDir = await temp.make("scm-artifacts-crash-");
    moduleDir = await transpileStore(buildDir);
    childScript = path.join(buildDir, "child.mjs");
    await writeFile(childScript, CHILD_SOURCE);
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  afterAll(() => temp.cleanup());

  /** Runs the child to its SIGKILL; resolves with what it reported. */
  function publishAndCrash(storeDir: string): Promise<{ report: any; signal: string | null }> {
    const child = spawn(process.execPath, [childScript, moduleDir, storeDir, METADATA_FILE], {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: CHILD_TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    return new Promise((resolve, reject) => {
      child.on("exit", (_code, signal) => {
        const line = stdout.split("\n")[0];
        if (!line) return reject(new Error(`the child reported nothing: ${stderr}`));
        resolve({ report: JSON.parse(line), signal });
      });
    });
  }

  it("writes the metadata before the rename, and a kill between them publishes nothing", async () => {
    const parent = await temp.make();
    const storeDir = path.join(parent, "store");
    const { report, signal } = await publishAndCrash(storeDir);
    expect(signal).toBe("SIGKILL");
    // At the rename the staging directory already holds the complete metadata.
    expect(report.files).toContain(METADATA_FILE);
    expect(report.metadata).toMatchObject({ stdoutBytes: 1000, stderrBytes: 0 });
    expect(existsSync(path.join(storeDir, "published", report.id))).toBe(false);

    // The next store to open recovers the dead owner's staging and serves no half-artifact.
    const store = await openArtifactStore(storeOptions(storeDir));
    stores.push(store);
    await expect(store.read(report.id, "stdout", 0, 10, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
    expect(await readdir(path.join(storeDir, "staging"))).toEqual([]);
  });

  it("never serves a published directory whose metadata is missing", async () => {
    const parent = await temp.make();
    const store = await openStoreIn(parent);
    stores.push(store);
    const id = newArtifactId();
    const dir = path.join(parent, "store", "published", id);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(streamFile(dir, "stdout"), "half", { mode: 0o600 });
    await writeFile(streamFile(dir, "stderr"), "", { mode: 0o600 });
    await expect(store.read(id, "stdout", 0, 10, "utf8")).rejects.toMatchObject({
      code: "ARTIFACT_NOT_FOUND",
    });
  });
});
