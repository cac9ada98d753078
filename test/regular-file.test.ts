// src/regular-file.ts: both bounded readers (async and sync, one read loop) return a file of up
// to `maxBytes` whole, refuse a longer one, a symlink and a directory; the sync one also tells a
// missing file apart.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readRegularFile, readRegularFileSync } from "../src/regular-file.js";

const dirs: string[] = [];

function dir(): string {
  const made = mkdtempSync(path.join(os.tmpdir(), "scm-regular-file-"));
  dirs.push(made);
  return made;
}

afterEach(() => {
  for (const made of dirs.splice(0)) rmSync(made, { recursive: true, force: true });
});

const readers = {
  async: (file: string, maxBytes: number) => readRegularFile(file, maxBytes),
  sync: async (file: string, maxBytes: number) => readRegularFileSync(file, maxBytes),
};

describe.each(Object.entries(readers))("the %s regular-file reader", (_, read) => {
  it("returns a file of exactly maxBytes whole, and an empty file as no bytes", async () => {
    const file = path.join(dir(), "f");
    writeFileSync(file, "x".repeat(100));
    expect((await read(file, 100))?.toString()).toBe("x".repeat(100));
    writeFileSync(file, "");
    expect((await read(file, 100))?.length).toBe(0);
  });

  it("refuses a file one byte longer than maxBytes", async () => {
    const file = path.join(dir(), "f");
    writeFileSync(file, "x".repeat(101));
    expect(await read(file, 100)).toBeNull();
  });

  it("refuses a symlink and a directory", async () => {
    const base = dir();
    writeFileSync(path.join(base, "target"), "secret");
    symlinkSync(path.join(base, "target"), path.join(base, "link"));
    mkdirSync(path.join(base, "sub"));
    expect(await read(path.join(base, "link"), 100)).toBeNull();
    expect(await read(path.join(base, "sub"), 100)).toBeNull();
  });
});

describe("the sync reader", () => {
  it("tells a missing file (undefined) from a refused one (null)", () => {
    expect(readRegularFileSync(path.join(dir(), "missing"), 100)).toBeUndefined();
  });
});
