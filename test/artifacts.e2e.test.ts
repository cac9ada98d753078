// Artifacts through the real server (SPEC §3.3, §4, §8, §17): policies, paging back exact bytes,
// not-found cases, stream cap, quota eviction, retention, unusable store directories, two servers
// sharing one store, crash litter, modes, and small outputs never touching the disk.
// (The store module itself is unit-tested in test/artifacts-*.test.ts.)

import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRawServer, type RawServer } from "./helpers/raw-server.js";
import {
  errorText,
  eventually,
  isAlive,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

// ---------------------------------------------------------------------------------------------
// A deterministic output generator, run by the server's `node` and loaded by the test itself, so
// the test knows every byte the program produced.

const GENERATOR = String.raw`
"use strict";
const fs = require("node:fs");

function rng(seed) {
  let x = (seed >>> 0) || 0x9e3779b9;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

/** n pseudo-random bytes from a seed. */
function bytes(seed, n) {
  const next = rng(seed);
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = next() & 0xff;
  return out;
}

/** UTF-8 text of exactly n bytes (1- to 4-byte characters; padded with ASCII at the end). */
function text(seed, n) {
  const next = rng(seed);
  const alphabet = ["a", "b", "z", " ", "\n", "é", "ß", "€", "日", "本", "🚀", "𝄞"];
  const parts = [];
  let size = 0;
  for (;;) {
    const ch = alphabet[next() % alphabet.length];
    const len = Buffer.byteLength(ch);
    if (size + len > n) break;
    parts.push(ch);
    size += len;
  }
  parts.push("x".repeat(n - size));
  return Buffer.from(parts.join(""), "utf8");
}

module.exports = { bytes, text };

if (require.main === module) {
  const [mode, seed, outBytes, errBytes, pidFile] = process.argv.slice(2);
  const make = mode === "text" ? text : bytes;
  if (mode === "slow") {
    // Past the inline limit at once, then a trickle until the pipe breaks.
    fs.writeFileSync(pidFile, String(process.pid));
    process.stdout.on("error", () => process.exit(0));
    process.stdout.write(text(Number(seed), Number(outBytes)));
    setInterval(() => process.stdout.write("tick\n"), 50);
  } else {
    process.stdout.write(make(Number(seed), Number(outBytes)));
    process.stderr.write(make(Number(seed) + 1, Number(errBytes)));
  }
}
`;

interface Generator {
  bytes(seed: number, n: number): Buffer;
  text(seed: number, n: number): Buffer;
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const ID = /^[0-9a-f]{32}$/;
const EXEC_TIMEOUT_MS = 40_000; // below the default yield (45 s): no running handles here

let root: string;
let genPath: string;
let gen: Generator;

beforeAll(() => {
  root = tempDir("scm-artifacts-e2e-");
  genPath = path.join(root, "gen.cjs");
  writeFileSync(genPath, GENERATOR);
  gen = createRequire(import.meta.url)(genPath) as Generator;
});

afterAll(() => {
  removeDir(root);
});

function manifest(): object {
  const node = (artifactPolicy?: string) => ({
    candidates: [process.execPath],
    ...(artifactPolicy ? { policy: { artifactPolicy } } : {}),
  });
  return {
    version: 2,
    searchPath: [path.dirname(process.execPath), "/usr/bin", "/bin"],
    programs: {
      node: node(),
      "node-never": node("never"),
      "node-truncation": node("on-truncation"),
      "node-always": node("always"),
    },
  };
}

/** Starts a server over the shared manifest with a given artifact dir and extra flags. */
async function serverWith(artifactDir: string, extra: string[] = []): Promise<TestServer> {
  const manifestFile = path.join(root, "manifest.json");
  if (!existsSync(manifestFile)) writeManifest(root, manifest());
  return startServer({
    args: ["--manifest", manifestFile, "--root", root, "--artifact-dir", artifactDir, ...extra],
  });
}

/** Runs the generator: `mode` binary|text, stdout and stderr sizes. */
function generate(
  server: TestServer,
  mode: "binary" | "text",
  seed: number,
  outBytes: number,
  errBytes = 0,
  program = "node",
) {
  return server.exec({
    program,
    args: [genPath, mode, String(seed), String(outBytes), String(errBytes)],
    timeoutMs: EXEC_TIMEOUT_MS,
  });
}

async function page(server: TestServer, args: Record<string, unknown>) {
  const result = await server.call("system_output", args);
  if (result.isError) throw new Error(errorText(result));
  return result.structuredContent as Record<string, any>;
}

async function outputError(server: TestServer, args: Record<string, unknown>): Promise<string> {
  const result = await server.call("system_output", args);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return errorText(result);
}

/** Pages a whole stream, checking nextOffset/eof on every page; returns the bytes and texts. */
async function readStream(
  server: TestServer,
  id: string,
  stream: "stdout" | "stderr",
  encoding: "utf8" | "base64",
  limit: number,
): Promise<{ bytes: Buffer; text: string; pages: Record<string, any>[] }> {
  const chunks: Buffer[] = [];
  const pages: Record<string, any>[] = [];
  let text = "";
  let offset = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const p = await page(server, { id, stream, offset, limit, encoding });
    pages.push(p);
    expect(p.encoding).toBe(encoding);
    expect(p.nextOffset).toBe(offset + p.bytes);
    if (encoding === "base64") {
      const chunk = Buffer.from(p.base64, "base64");
      expect(chunk.length).toBe(p.bytes);
      expect(p.text).toBeUndefined();
      chunks.push(chunk);
    } else {
      expect(p.base64).toBeUndefined();
      text += p.text;
      chunks.push(Buffer.from(p.text, "utf8"));
    }
    offset = p.nextOffset;
    if (p.eof) break;
    expect(p.bytes).toBeGreaterThan(0);
  }
  return { bytes: Buffer.concat(chunks), text, pages };
}

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

// ---------------------------------------------------------------------------------------------

describe("artifact policies and paging through the real server", () => {
  let server: TestServer;
  let store: string;

  beforeAll(async () => {
    store = path.join(root, "store-main");
    server = await serverWith(store);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("never → not-requested, small or truncated", async () => {
    const small = await generate(server, "text", 1, 100, 0, "node-never");
    expect(small.artifact).toEqual({ status: "not-requested" });
    const big = await generate(server, "text", 2, 200_000, 0, "node-never");
    expect(big.stdout.truncated).toBe(true);
    expect(big.stdout.totalBytes).toBe(200_000);
    expect(big.artifact).toEqual({ status: "not-requested" });
  });

  it("on-truncation → discarded when both streams fit, published when either is truncated", async () => {
    for (const program of ["node", "node-truncation"]) {
      const small = await generate(server, "text", 3, 1000, 1000, program);
      expect(small.stdout.truncated).toBe(false);
      expect(small.artifact).toEqual({ status: "discarded" });

      const big = await generate(server, "text", 4, 100_000, 10, program);
      expect(big.stdout.truncated).toBe(true);
      expect(big.artifact.status).toBe("published");
      expect(big.artifact.id).toMatch(ID);
      expect(big.artifact.reason).toBeUndefined();

      const onlyStderr = await generate(server, "text", 5, 10, 50_000, program);
      expect(onlyStderr.stdout.truncated).toBe(false);
      expect(onlyStderr.stderr.truncated).toBe(true);
      expect(onlyStderr.artifact.status).toBe("published");
      const out = await readStream(server, onlyStderr.artifact.id, "stdout", "base64", 1 << 20);
      expect(out.bytes.equals(gen.text(5, 10))).toBe(true);
      const err = await readStream(server, onlyStderr.artifact.id, "stderr", "base64", 1 << 20);
      expect(err.bytes.equals(gen.text(6, 50_000))).toBe(true);
    }
  });

  it("always → published even for a small output, and pages it back", async () => {
    const result = await generate(server, "text", 7, 5, 3, "node-always");
    expect(result.stdout.truncated).toBe(false);
    expect(result.artifact.status).toBe("published");
    expect(result.artifact.id).toMatch(ID);
    const p = await page(server, { id: result.artifact.id, stream: "stdout", offset: 0 });
    expect(p).toMatchObject({ bytes: 5, nextOffset: 5, eof: true, encoding: "utf8" });
    expect(Buffer.from(p.text).equals(gen.text(7, 5))).toBe(true);
    expect(p.lossyUtf8).toBe(false);

    const empty = await generate(server, "text", 9, 0, 0, "node-always");
    expect(empty.artifact.status).toBe("published");
    const none = await page(server, { id: empty.artifact.id, stream: "stderr", offset: 0 });
    expect(none).toMatchObject({ bytes: 0, nextOffset: 0, eof: true });
  });

  it("pages ~3 MiB of random binary stdout (and stderr) back exactly in base64 pages", async () => {
    const outBytes = 3 * 1024 * 1024 + 12_345;
    const errBytes = 200_003;
    const result = await generate(server, "binary", 42, outBytes, errBytes);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.totalBytes).toBe(outBytes);
    expect(result.stderr.totalBytes).toBe(errBytes);
    expect(result.artifact.status).toBe("published");
    const id = result.artifact.id as string;

    // A limit above 1 MiB is clamped to exactly 1 MiB (base64 pages are exact).
    const out = await readStream(server, id, "stdout", "base64", 50 * 1024 * 1024);
    expect(out.pages.map((p) => p.bytes)).toEqual([1 << 20, 1 << 20, 1 << 20, 12_345]);
    expect(out.pages.map((p) => p.eof)).toEqual([false, false, false, true]);
    expect(out.bytes.length).toBe(outBytes);
    expect(sha256(out.bytes)).toBe(sha256(gen.bytes(42, outBytes)));

    // An odd page size: every page but the last is full, eof only on the last.
    const err = await readStream(server, id, "stderr", "base64", 65_537);
    expect(err.pages.slice(0, -1).every((p) => p.bytes === 65_537 && !p.eof)).toBe(true);
    expect(err.pages.at(-1)!.eof).toBe(true);
    expect(sha256(err.bytes)).toBe(sha256(gen.bytes(43, errBytes)));
  });

  it("pages UTF-8 text back in utf8 pages whose texts concatenate to the produced text", async () => {
    const outBytes = 1_500_000;
    const result = await generate(server, "text", 77, outBytes, 70_001);
    expect(result.artifact.status).toBe("published");
    const id = result.artifact.id as string;
    const produced = gen.text(77, outBytes);

    // An odd limit: pages end on code point boundaries, so `bytes` may fall below the limit.
    const out = await readStream(server, id, "stdout", "utf8", 300_001);
    expect(out.text).toBe(produced.toString("utf8"));
    expect(sha256(out.bytes)).toBe(sha256(produced));
    for (const p of out.pages) {
      expect(p.bytes).toBeLessThanOrEqual(300_001);
      expect(Buffer.byteLength(p.text, "utf8")).toBe(p.bytes);
      expect(p.lossyUtf8).toBe(false);
    }
    expect(out.pages.filter((p) => p.eof)).toHaveLength(1);
    expect(out.pages.at(-1)!.eof).toBe(true);

    // A limit above 512 KiB is clamped, and (§3.3, Revision 2) a utf8 page ends before its text
    // escapes to 30,000 characters.
    const first = await page(server, { id, stream: "stdout", offset: 0, limit: 10_000_000 });
    expect(first.bytes).toBeLessThanOrEqual(512 * 1024);
    expect(JSON.stringify(first.text).length - 2).toBeLessThan(30_000);
    expect(first.bytes).toBeGreaterThan(10_000);

    const err = await readStream(server, id, "stderr", "utf8", 4096);
    expect(err.text).toBe(gen.text(78, 70_001).toString("utf8"));
  });

  it("eof is true exactly at the end; offset = length is an empty eof page, past it INVALID_OUTPUT_OFFSET", async () => {
    const result = await generate(server, "binary", 5, 40_000, 0);
    const id = result.artifact.id as string;
    const before = await page(server, { id, stream: "stdout", offset: 39_999, encoding: "base64" });
    expect(before).toMatchObject({ bytes: 1, nextOffset: 40_000, eof: true });
    const short = await page(server, {
      id,
      stream: "stdout",
      offset: 0,
      limit: 39_999,
      encoding: "base64",
    });
    expect(short).toMatchObject({ bytes: 39_999, nextOffset: 39_999, eof: false });
    const atEnd = await page(server, { id, stream: "stdout", offset: 40_000 });
    expect(atEnd).toMatchObject({ bytes: 0, nextOffset: 40_000, eof: true });
    expect(await outputError(server, { id, stream: "stdout", offset: 40_001 })).toMatch(
      /^INVALID_OUTPUT_OFFSET: /,
    );
    expect(await outputError(server, { id, stream: "stderr", offset: 1 })).toMatch(
      /^INVALID_OUTPUT_OFFSET: /,
    );
    // Revision 2: a negative offset counts from the end (§3.3).
    const last = await page(server, { id, stream: "stdout", offset: -1, encoding: "base64" });
    expect(last).toMatchObject({ offset: 39_999, bytes: 1, nextOffset: 40_000, eof: true });
  });

  it("ARTIFACT_NOT_FOUND for unknown and malformed ids", async () => {
    const ids = [
      "0123456789abcdef0123456789abcdef",
      "../../etc/passwd",
      "../published/0123456789abcdef0123456789abcdef",
      "0123456789ABCDEF0123456789ABCDEF",
      "0123456789abcdef0123456789abcde",
      "",
      "/etc/passwd",
    ];
    for (const id of ids) {
      expect(await outputError(server, { id, stream: "stdout", offset: 0 })).toMatch(
        /^ARTIFACT_NOT_FOUND: /,
      );
    }
  });

  it("ARTIFACT_NOT_FOUND for an artifact whose stdout file was truncated on disk", async () => {
    const result = await generate(server, "binary", 11, 50_000, 1000);
    const id = result.artifact.id as string;
    const file = path.join(store, "published", id, "stdout");
    expect(statSync(file).size).toBe(50_000);
    expect((await page(server, { id, stream: "stdout", offset: 0 })).bytes).toBeGreaterThan(0);
    truncateSync(file, 10_000);
    expect(await outputError(server, { id, stream: "stdout", offset: 0 })).toMatch(
      /^ARTIFACT_NOT_FOUND: /,
    );
    expect(await outputError(server, { id, stream: "stderr", offset: 0 })).toMatch(
      /^ARTIFACT_NOT_FOUND: /,
    );
  });

  it("creates directories 0700 and files 0600", async () => {
    const result = await generate(server, "text", 12, 40_000, 100);
    const id = result.artifact.id as string;
    for (const dir of [store, "staging", "published", "trash", `published/${id}`]) {
      expect(mode(path.resolve(store, dir)), dir).toBe(0o700);
    }
    for (const file of ["stdout", "stderr", "meta.json"]) {
      expect(mode(path.join(store, "published", id, file)), file).toBe(0o600);
    }
    const meta = JSON.parse(readFileSync(path.join(store, "published", id, "meta.json"), "utf8"));
    expect(meta).toMatchObject({ version: 1, stdoutBytes: 40_000, stderrBytes: 100 });
    expect(typeof meta.publishedAt).toBe("number");
  });
});

describe("small outputs never touch the disk", () => {
  let server: TestServer;
  let store: string;
  let watcher: FSWatcher | undefined;

  beforeAll(async () => {
    store = path.join(root, "store-small");
    server = await serverWith(store);
  });

  afterAll(async () => {
    watcher?.close();
    await server?.close();
  });

  it("leaves the store exactly as startup made it, and no staging entry ever appears", async () => {
    await server.call("system_environment");
    // What the store makes at startup (in the background, after the server answers): three
    // private, empty directories.
    const made = () => existsSync(store) && readdirSync(store).length === 3;
    expect(await eventually(made, 10_000)).toBe(true);
    expect(readdirSync(store).sort()).toEqual(["published", "staging", "trash"]);
    for (const dir of ["published", "staging", "trash"]) {
      expect(mode(path.join(store, dir))).toBe(0o700);
      expect(readdirSync(path.join(store, dir))).toEqual([]);
    }
    const events: string[] = [];
    watcher = watch(path.join(store, "staging"), (_event, name) => events.push(String(name)));

    const small = await generate(server, "text", 20, 2000, 500);
    expect(small.artifact).toEqual({ status: "discarded" });
    const never = await generate(server, "text", 21, 2000, 0, "node-never");
    expect(never.artifact).toEqual({ status: "not-requested" });
    expect(readdirSync(store).sort()).toEqual(["published", "staging", "trash"]);
    for (const dir of ["published", "staging", "trash"]) {
      expect(readdirSync(path.join(store, dir))).toEqual([]);
    }

    // A marker: an `always` publication does make a staging entry. inotify delivers events in
    // order, so once its event is seen, any earlier staging entry would have been seen too.
    const marker = await generate(server, "text", 22, 10, 0, "node-always");
    const id = marker.artifact.id as string;
    expect(await eventually(() => events.some((name) => name.endsWith(id)), 10_000)).toBe(true);
    expect(events.filter((name) => !name.endsWith(id))).toEqual([]);
    expect(readdirSync(path.join(store, "published"))).toEqual([id]);
  });
});

describe("stream cap", () => {
  let capped: TestServer;
  let plain: TestServer;
  let cappedStore: string;

  beforeAll(async () => {
    cappedStore = path.join(root, "store-cap");
    capped = await serverWith(cappedStore, ["--artifact-max-stream-bytes", "100000"]);
    plain = await serverWith(path.join(root, "store-nocap"));
  });

  afterAll(async () => {
    await capped?.close();
    await plain?.close();
  });

  it("200 KB past a 100000-byte cap → unavailable STREAM_CAP, the result otherwise unchanged", async () => {
    const withCap = await generate(capped, "text", 30, 200_000, 120);
    const without = await generate(plain, "text", 30, 200_000, 120);
    expect(withCap.artifact).toEqual({ status: "unavailable", reason: "STREAM_CAP" });
    expect(without.artifact.status).toBe("published");
    expect(withCap.exitCode).toBe(0);
    expect(withCap.exitCode).toBe(without.exitCode);
    expect(withCap.signal).toBe(without.signal);
    expect(withCap.stdout).toEqual(without.stdout);
    expect(withCap.stderr).toEqual(without.stderr);
    expect(withCap.stdout.totalBytes).toBe(200_000);
    expect(withCap.stdout.truncated).toBe(true);
    expect(withCap.termination).toEqual(without.termination);
    // The refused spool is removed.
    expect(readdirSync(path.join(cappedStore, "staging"))).toEqual([]);
    expect(readdirSync(path.join(cappedStore, "published"))).toEqual([]);
  });

  it("an output within the cap is still published", async () => {
    const result = await generate(capped, "binary", 31, 100_000, 0);
    expect(result.artifact.status).toBe("published");
    const out = await readStream(capped, result.artifact.id, "stdout", "base64", 1 << 20);
    expect(sha256(out.bytes)).toBe(sha256(gen.bytes(31, 100_000)));
  });
});

describe("quota", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await serverWith(path.join(root, "store-quota"), ["--artifact-quota-bytes", "100000"]);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("publishing a third artifact evicts the oldest; one larger than the quota → QUOTA", async () => {
    const ids: string[] = [];
    for (const seed of [40, 41, 42]) {
      const result = await generate(server, "text", seed, 40_000);
      expect(result.artifact.status).toBe("published");
      ids.push(result.artifact.id);
    }
    expect(await outputError(server, { id: ids[0], stream: "stdout", offset: 0 })).toMatch(
      /^ARTIFACT_NOT_FOUND: /,
    );
    for (const [i, seed] of [
      [1, 41],
      [2, 42],
    ] as const) {
      const out = await readStream(server, ids[i]!, "stdout", "base64", 1 << 20);
      expect(out.bytes.equals(gen.text(seed, 40_000))).toBe(true);
    }

    const tooBig = await generate(server, "text", 43, 150_000);
    expect(tooBig.artifact).toEqual({ status: "unavailable", reason: "QUOTA" });
    expect(tooBig.stdout.totalBytes).toBe(150_000);
    // Refusing it evicted nothing.
    for (const id of ids.slice(1)) {
      expect((await page(server, { id, stream: "stdout", offset: 0 })).bytes).toBeGreaterThan(0);
    }
  });
});

describe("retention", () => {
  const RETENTION_MS = 2500;
  let server: TestServer;
  let store: string;

  beforeAll(async () => {
    store = path.join(root, "store-retention");
    server = await serverWith(store, ["--artifact-retention-ms", String(RETENTION_MS)]);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("expires from publication whatever the reads in between → ARTIFACT_NOT_FOUND", async () => {
    const result = await generate(server, "text", 50, 40_000);
    const id = result.artifact.id as string;
    const meta = JSON.parse(readFileSync(path.join(store, "published", id, "meta.json"), "utf8"));
    const publishedAt = meta.publishedAt as number;
    // Read continuously: a sliding (read-extended) retention would never expire this way.
    let reads = 0;
    let expiredAt = 0;
    const deadline = Date.now() + RETENTION_MS + 20_000;
    while (Date.now() < deadline) {
      const r = await server.call("system_output", { id, stream: "stdout", offset: 0, limit: 10 });
      if (r.isError) {
        expect(errorText(r)).toMatch(/^ARTIFACT_NOT_FOUND: /);
        expiredAt = Date.now();
        break;
      }
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(reads).toBeGreaterThan(0);
    expect(expiredAt).toBeGreaterThanOrEqual(publishedAt + RETENTION_MS);
    // Still gone on later reads.
    expect(await outputError(server, { id, stream: "stderr", offset: 0 })).toMatch(
      /^ARTIFACT_NOT_FOUND: /,
    );
  });
});

describe("unusable store directories", () => {
  const cases: [string, () => string][] = [
    [
      "a path whose parent is a regular file",
      () => {
        const file = path.join(root, "not-a-dir");
        writeFileSync(file, "x");
        return path.join(file, "store");
      },
    ],
    [
      "an existing group-readable directory (0750)",
      () => {
        const dir = path.join(root, "store-0750");
        mkdirSync(dir);
        chmodSync(dir, 0o750);
        return dir;
      },
    ],
  ];
  for (const [name, make] of cases) {
    it(`${name} → unavailable STORE_UNAVAILABLE, execution unaffected`, async () => {
      const dir = make();
      const server = await serverWith(dir);
      try {
        const result = await generate(server, "text", 60, 100_000, 7);
        expect(result.exitCode).toBe(0);
        expect(result.timedOut).toBe(false);
        expect(result.stdout.totalBytes).toBe(100_000);
        expect(result.stdout.truncated).toBe(true);
        expect(result.stderr.text).toBe(gen.text(61, 7).toString("utf8"));
        expect(result.artifact).toEqual({ status: "unavailable", reason: "STORE_UNAVAILABLE" });
        const always = await generate(server, "text", 62, 3, 0, "node-always");
        expect(always.exitCode).toBe(0);
        expect(always.artifact).toEqual({ status: "unavailable", reason: "STORE_UNAVAILABLE" });
        const never = await generate(server, "text", 63, 3, 0, "node-never");
        expect(never.artifact).toEqual({ status: "not-requested" });
        expect(
          await outputError(server, {
            id: "0123456789abcdef0123456789abcdef",
            stream: "stdout",
            offset: 0,
          }),
        ).toMatch(/^ARTIFACT_NOT_FOUND: /);
        if (existsSync(dir)) {
          // An existing directory is checked, never changed (nor filled).
          expect(mode(dir)).toBe(0o750);
          expect(readdirSync(dir)).toEqual([]);
        }
      } finally {
        await server.close();
      }
    });
  }
});

describe("two servers sharing one store", () => {
  let a: TestServer;
  let b: TestServer;
  let store: string;

  beforeAll(async () => {
    store = path.join(root, "store-shared");
    const flags = ["--max-concurrent-executions", "10"];
    [a, b] = await Promise.all([serverWith(store, flags), serverWith(store, flags)]);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("publish 10 artifacts each in parallel; each reads the other's back intact", async () => {
    const N = 10;
    const run = (server: TestServer, base: number) =>
      Array.from({ length: N }, (_, i) =>
        generate(server, "binary", base + 2 * i, 150_000 + i, 5000 + i),
      );
    const results = await Promise.all([...run(a, 1000), ...run(b, 2000)]);
    // 20 publications contend for one lock that each waits at most 500 ms for (§6.6): on a
    // CPU-starved machine a few may lose that race. Losing it is the specified outcome
    // (`unavailable`, LOCK_TIMEOUT) and must leave no trace; what may never happen is a lost or
    // corrupt published artifact, or any other failure.
    for (const r of results) {
      expect(r.exitCode).toBe(0);
      if (r.artifact.status !== "published") {
        expect(r.artifact, JSON.stringify(r.artifact)).toEqual({
          status: "unavailable",
          reason: "LOCK_TIMEOUT",
        });
      }
    }
    const published = results
      .map((r, index) => ({ index, id: r.artifact.id as string | undefined }))
      .filter((p): p is { index: number; id: string } => p.id !== undefined);
    expect(published.filter((p) => p.index < N).length).toBeGreaterThan(0);
    expect(published.filter((p) => p.index >= N).length).toBeGreaterThan(0);
    const ids = published.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(readdirSync(path.join(store, "published")).sort()).toEqual([...ids].sort());

    const check = async (reader: TestServer, index: number, id: string) => {
      const seed = index < N ? 1000 + 2 * index : 2000 + 2 * (index - N);
      const i = index % N;
      const out = await readStream(reader, id, "stdout", "base64", 1 << 20);
      expect(sha256(out.bytes)).toBe(sha256(gen.bytes(seed, 150_000 + i)));
      const err = await readStream(reader, id, "stderr", "base64", 1 << 20);
      expect(sha256(err.bytes)).toBe(sha256(gen.bytes(seed + 1, 5000 + i)));
    };
    // Cross reads, concurrently: a reads b's, b reads a's; then each its own.
    await Promise.all(published.map((p) => check(p.index < N ? b : a, p.index, p.id)));
    await Promise.all(published.map((p) => check(p.index < N ? a : b, p.index, p.id)));
    // Nothing left half-written, also by the publications that lost the lock race.
    expect(readdirSync(path.join(store, "staging"))).toEqual([]);
    expect(readdirSync(path.join(store, "published"))).toHaveLength(ids.length);
    expect(existsSync(path.join(store, "store.lock"))).toBe(false);
  });
});

describe("staging left by a killed server", () => {
  let raw: RawServer | undefined;
  let childPid = 0;

  afterAll(async () => {
    if (raw && raw.child.exitCode === null && raw.child.signalCode === null) {
      raw.child.kill("SIGKILL");
      await raw.exited;
    }
    if (childPid > 1 && isAlive(childPid)) {
      try {
        process.kill(-childPid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });

  it("a SIGKILLed server's staging is removed when a new server opens the store", async () => {
    const store = path.join(root, "store-crash");
    const pidFile = path.join(root, "slow.pid");
    raw = startRawServer([
      "--manifest",
      writeManifest(root, manifest()),
      "--root",
      root,
      "--artifact-dir",
      store,
    ]);
    await raw.initialize();
    raw.callTool(1, "system_exec", {
      program: "node",
      args: [genPath, "slow", "70", "40000", "0", pidFile],
      timeoutMs: EXEC_TIMEOUT_MS,
    });
    const stagingDir = path.join(store, "staging");
    const entries = () => (existsSync(stagingDir) ? readdirSync(stagingDir) : []);
    const spooled = () => {
      const [entry] = entries();
      if (!entry) return false;
      const file = path.join(stagingDir, entry, "stdout");
      return existsSync(file) && statSync(file).size >= 40_000;
    };
    expect(await eventually(spooled, 30_000)).toBe(true);
    expect(
      await eventually(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", 10_000),
    ).toBe(true);
    childPid = Number(readFileSync(pidFile, "utf8"));

    const [entry] = entries();
    expect(entries()).toHaveLength(1);
    expect(entry).toMatch(new RegExp(`^${raw.child.pid}-[A-Za-z0-9]+-[0-9a-f]{32}$`));
    expect(mode(path.join(stagingDir, entry!))).toBe(0o700);
    expect(mode(path.join(stagingDir, entry!, "stdout"))).toBe(0o600);
    expect(mode(path.join(stagingDir, entry!, "stderr"))).toBe(0o600);

    raw.child.kill("SIGKILL");
    expect((await raw.exited).signal).toBe("SIGKILL");
    // The orphaned program dies on its next write to the broken pipe; make sure of it.
    if (await eventually(() => !isAlive(childPid), 5_000)) childPid = 0;
    else process.kill(-childPid, "SIGKILL");
    expect(entries()).toEqual([entry]);

    const next = await serverWith(store);
    try {
      expect(await eventually(() => entries().length === 0, 10_000)).toBe(true);
      expect(readdirSync(path.join(store, "published"))).toEqual([]);
      // The store works normally afterwards.
      const result = await generate(next, "text", 71, 40_000);
      expect(result.artifact.status).toBe("published");
    } finally {
      await next.close();
    }
  });
});
