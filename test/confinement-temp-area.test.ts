// The per-execution temp directories of confined runs (SPEC §20): made private, fresh for every
// execution (a spare made ahead is never one another execution used), and removed entirely when
// the execution ends, whether the program left nothing, a few entries or many; at close, every
// one not yet removed and the spare are removed synchronously.

import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutionTemp, ExecutionTemps, openTempArea } from "../src/confinement/temp-area.js";
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

  it("removes a /tmp with many entries", async () => {
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

  const ours = () => readdirSync(area).filter((name) => name.startsWith(`x-${process.pid}-`));
  /** Resolves once the spare the last take() started is on disk, whole. */
  const spareMade = async (before: number) => {
    const whole = () =>
      ours().length > before &&
      ours().every((name) => readdirSync(path.join(area, name)).includes("empty"));
    for (let turn = 0; turn < 10_000 && !whole(); turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it("gives every execution a fresh directory and makes the next one ahead", async () => {
    const temps = new ExecutionTemps(area);
    const first = await temps.take();
    await spareMade(1);
    expect(ours()).toHaveLength(2); // the taken one and the spare
    writeFileSync(path.join(first.tmpDir, "left-by-run-1"), "x");
    const second = await temps.take();
    expect(second.tmpDir).not.toBe(first.tmpDir);
    expect(readdirSync(second.tmpDir)).toEqual([]);
    expect(statSync(second.tmpDir).mode & 0o777).toBe(0o700);
    expect(statSync(second.emptyDir).mode & 0o777).toBe(0o500);
    await temps.release(first);
    expect(existsSync(path.dirname(first.tmpDir))).toBe(false);
    await temps.release(second);
    await spareMade(0);
    temps.close();
    expect(ours()).toEqual([]);
  });

  it("removes the taken and the spare directories synchronously at close", async () => {
    const temps = new ExecutionTemps(area);
    const taken = [await temps.take(), await temps.take()];
    await spareMade(2);
    expect(ours()).toHaveLength(3);
    temps.close();
    expect(ours()).toEqual([]);
    for (const temp of taken) expect(existsSync(temp.tmpDir)).toBe(false);
  });

  it("removes a spare still being made at close", async () => {
    const temps = new ExecutionTemps(area);
    const taken = await temps.take(); // the spare's mkdtemp is in flight now
    for (let turn = 0; turn < 10_000 && ours().length < 2; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    temps.close(); // removed now, or as soon as its in-flight mkdtemp returns
    await temps.settled();
    expect(ours()).toEqual([]);
    expect(existsSync(taken.tmpDir)).toBe(false);
  });

  it("never gives one directory to two executions that start at once", async () => {
    const temps = new ExecutionTemps(area);
    await temps.release(await temps.take());
    await spareMade(0); // a spare is ready: every one of the next takes wants it
    const taken = await Promise.all(Array.from({ length: 6 }, () => temps.take()));
    expect(new Set(taken.map((temp) => temp.tmpDir)).size).toBe(taken.length);
    await spareMade(taken.length);
    expect(ours()).toHaveLength(taken.length + 1); // the six and one spare, none orphaned
    temps.close();
    await temps.settled();
    expect(ours()).toEqual([]);
  });
});
