// Shared helpers of the artifact store tests: temporary directories, publishing bytes, paging a
// whole stream, and a plain-JavaScript copy of the store for child processes.

import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  openArtifactStore,
  type ArtifactStore,
  type ArtifactStoreOptions,
} from "../src/artifacts/store.js";
import type { ArtifactOutcome, OutputEncoding, StreamName } from "../src/runtime/types.js";

const MiB = 1024 * 1024;
const here = path.dirname(fileURLToPath(import.meta.url));
const sourceRoot = path.join(here, "..", "src");

/** Temporary directories made by a test file, removed by cleanup(). */
export class TempDirs {
  private readonly dirs: string[] = [];

  async make(prefix = "scm-artifacts-"): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async cleanup(): Promise<void> {
    const dirs = this.dirs.splice(0);
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/**
 * Opens a store in a fresh temporary directory before each test (before the file's tests with
 * `once`), hands it to `set`, and closes and removes it afterwards.
 */
export function useStore(
  set: (store: ArtifactStore) => void,
  options: { once?: boolean; overrides?: Partial<ArtifactStoreOptions> } = {},
): void {
  const temp = new TempDirs();
  let store: ArtifactStore | undefined;
  (options.once ? beforeAll : beforeEach)(async () => {
    store = await openStoreIn(await temp.make(), options.overrides);
    set(store);
  });
  (options.once ? afterAll : afterEach)(async () => {
    await store?.close();
    store = undefined;
    await temp.cleanup();
  });
}

/** Store options with generous defaults, overridable per test. */
export function storeOptions(
  dir: string,
  overrides: Partial<ArtifactStoreOptions> = {},
): ArtifactStoreOptions {
  return {
    dir,
    retentionMs: 86_400_000,
    quotaBytes: 1024 * MiB,
    maxStreamBytes: 100 * MiB,
    ...overrides,
  };
}

/** Opens a store in `<parent>/store`. */
export function openStoreIn(
  parent: string,
  overrides: Partial<ArtifactStoreOptions> = {},
): Promise<ArtifactStore> {
  return openArtifactStore(storeOptions(path.join(parent, "store"), overrides));
}

/** Spools both streams (in chunks, honouring backpressure) and publishes them. */
export async function publishBytes(
  store: ArtifactStore,
  stdout: Buffer,
  stderr: Buffer = Buffer.alloc(0),
): Promise<ArtifactOutcome> {
  const staging = await store.createStaging();
  for (const [stream, bytes] of [
    ["stdout", stdout],
    ["stderr", stderr],
  ] as const) {
    for (let at = 0; at < bytes.length; at += 64 * 1024) {
      if (!staging.write(stream, bytes.subarray(at, at + 64 * 1024))) {
        await staging.drained(stream);
      }
    }
  }
  return staging.publish({ stdout: stdout.length, stderr: stderr.length });
}

/** Pages a whole published stream; returns the bytes (base64) or the text (utf8) and the pages. */
export async function readWhole(
  store: ArtifactStore,
  id: string,
  stream: StreamName,
  encoding: OutputEncoding,
  limit: number,
) {
  const parts: Buffer[] = [];
  const texts: string[] = [];
  const pages = [];
  let offset = 0;
  for (;;) {
    const page = await store.read(id, stream, offset, limit, encoding);
    pages.push(page);
    if (encoding === "base64") parts.push(Buffer.from(page.base64 ?? "", "base64"));
    else texts.push(page.text ?? "");
    offset = page.nextOffset;
    if (page.eof) break;
    if (page.bytes === 0) throw new Error(`empty page before eof at offset ${offset}`);
  }
  return { bytes: Buffer.concat(parts), text: texts.join(""), pages };
}

/** Names in a directory, or [] when it does not exist. */
export async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/**
 * Transpiles src/artifacts and the modules it imports to plain ESM in `outDir` (no type check),
 * so child Node processes can import the store whether or not `npm run build` has run.
 * Returns the directory holding artifacts/store.js.
 */
export async function transpileStore(outDir: string): Promise<string> {
  const files = [
    "errors.ts",
    "limits.ts",
    "without-stack-traces.ts",
    "file-modes.ts",
    "regular-file.ts",
    "child-process.ts",
    "process/proc-table.ts",
  ];
  // The store and the output stage it builds on (the one page function, the UTF-8 module).
  for (const stage of ["artifacts", "output"]) {
    for (const name of await readdir(path.join(sourceRoot, stage))) {
      if (name.endsWith(".ts")) files.push(`${stage}/${name}`);
    }
  }
  for (const file of files) {
    const source = await readFile(path.join(sourceRoot, file), "utf8");
    const output = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
      },
    });
    const target = path.join(outDir, file.replace(/\.ts$/, ".js"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, output.outputText);
  }
  return outDir;
}
