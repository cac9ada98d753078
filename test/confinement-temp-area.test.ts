// The per-execution temp directories of confined runs (SPEC §20): made private, and removed
// entirely when the execution ends, whether the program left nothing, a few entries (removed
// synchronously) or many (removed through the thread pool).

import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutionTemp, openTempArea } from "../src/confinement/temp-area.js";
import { removeDir, tempDir } from "./helpers/server.js";

let base: string;
let area: string;

beforeAll(() => {
  base = tempDir("scm-temp-area-");
  area = openTempArea(base);
});

afterAll(() => removeDir(base));

describe.runIf(process.platform !== "win32")("execution temp directories", () => {
  it("makes a private /tmp and a read-only empty directory", () => {
    const temp = createExecutionTemp(area);
    expect(statSync(temp.tmpDir).mode & 0o777).toBe(0o700);
    expect(statSync(temp.emptyDir).mode & 0o777).toBe(0o500);
    temp.removeSync();
    expect(existsSync(path.dirname(temp.tmpDir))).toBe(false);
  });

  it("removes an untouched execution directory", async () => {
    const temp = createExecutionTemp(area);
    await temp.remove();
    expect(existsSync(path.dirname(temp.tmpDir))).toBe(false);
  });

  it("removes the mount points and files a run left in its /tmp", async () => {
    const temp = createExecutionTemp(area);
    // what bubblewrap leaves for a Root below /tmp, plus a few files of the program
    mkdirSync(path.join(temp.tmpDir, "work", "project", "root"), { recursive: true });
    writeFileSync(path.join(temp.tmpDir, "scratch.txt"), "x");
    writeFileSync(path.join(temp.tmpDir, "work", "note"), "y");
    await temp.remove();
    expect(existsSync(path.dirname(temp.tmpDir))).toBe(false);
  });

  it("removes a /tmp with more entries than it removes synchronously", async () => {
    const temp = createExecutionTemp(area);
    for (let i = 0; i < 40; i++) {
      const dir = path.join(temp.tmpDir, `d${i}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "f"), String(i));
      writeFileSync(path.join(dir, "g"), String(i));
    }
    await temp.remove();
    expect(existsSync(path.dirname(temp.tmpDir))).toBe(false);
    expect(readdirSync(area).filter((name) => name.startsWith(`x-${process.pid}-`))).toEqual([]);
  });

  it("is idempotent", async () => {
    const temp = createExecutionTemp(area);
    await temp.remove();
    await temp.remove();
    temp.removeSync();
    expect(existsSync(path.dirname(temp.tmpDir))).toBe(false);
  });
});
