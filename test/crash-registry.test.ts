// The crash registry's coalesced writes (SPEC §19, §16): a group is written only once it has
// lived through the flush delay, so short executions never touch the disk; a persisted group
// (background handle) is on disk at once and stays there until it ends.

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GroupRegistry } from "../src/process/crash-registry.js";
import { eventually, removeDir, tempDir } from "./helpers/server.js";

let dir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = tempDir();
});

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  removeDir(dir);
});

/** A live process to record (its pid stands for a group leader). */
function sleeper(): number {
  const child = spawn("/bin/sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

/** The pgids in this registry's file, or undefined when there is no file. */
function recorded(registryDir: string): number[] | undefined {
  if (!existsSync(registryDir)) return undefined;
  const files = readdirSync(registryDir).filter((name) => name.endsWith(".json"));
  if (files.length === 0) return undefined;
  const content = JSON.parse(readFileSync(path.join(registryDir, files[0]!), "utf8")) as {
    groups: { pgid: number }[];
  };
  return content.groups.map((group) => group.pgid);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe.runIf(process.platform === "linux")("crash registry writes", () => {
  it("does not write groups younger than the flush delay, however many flushes run", async () => {
    const registryDir = path.join(dir, "executions");
    let clock = 0; // frozen: the groups stay young while real flush timers keep firing
    const registry = new GroupRegistry(registryDir, () => clock);
    const [a, b] = [sleeper(), sleeper()];
    registry.add(a);
    registry.add(b);
    registry.remove(b);
    registry.add(b);
    await settle();
    expect(recorded(registryDir)).toBeUndefined();
    clock += 10; // now both are as old as the delay: the next flush writes them
    expect(await eventually(() => recorded(registryDir)?.length === 2)).toBe(true);
    expect(recorded(registryDir)?.sort()).toEqual([a, b].sort());
    registry.remove(a);
    registry.remove(b);
    await registry.close();
  });

  it("never writes a group removed before the flush delay", async () => {
    const registryDir = path.join(dir, "executions");
    const registry = new GroupRegistry(registryDir);
    for (let i = 0; i < 5; i++) {
      const pid = sleeper();
      registry.add(pid);
      registry.remove(pid);
    }
    await settle();
    expect(recorded(registryDir)).toBeUndefined();
    await registry.close();
  });

  it("writes a group that outlives the delay, and rewrites the file without it after its end", async () => {
    const registryDir = path.join(dir, "executions");
    const registry = new GroupRegistry(registryDir);
    const pid = sleeper();
    registry.add(pid);
    expect(await eventually(() => recorded(registryDir)?.includes(pid) === true)).toBe(true);
    registry.remove(pid);
    expect(await eventually(() => recorded(registryDir)?.length === 0)).toBe(true);
    await registry.close();
    expect(recorded(registryDir)).toBeUndefined();
  });

  it("writes a group added right before a flush of older ones only once it is old enough", async () => {
    const registryDir = path.join(dir, "executions");
    const registry = new GroupRegistry(registryDir);
    const old = sleeper();
    registry.add(old);
    expect(await eventually(() => recorded(registryDir)?.includes(old) === true)).toBe(true);
    const young = sleeper();
    registry.add(young);
    registry.remove(old); // schedules a flush while `young` is still younger than the delay
    expect(
      await eventually(() => {
        const groups = recorded(registryDir);
        return groups?.length === 1 && groups[0] === young;
      }),
    ).toBe(true);
    registry.remove(young);
    await registry.close();
  });

  it("persist() writes a young group at once and keeps it written", async () => {
    const registryDir = path.join(dir, "executions");
    const registry = new GroupRegistry(registryDir);
    const pid = sleeper();
    registry.add(pid);
    await registry.persist();
    expect(recorded(registryDir)).toEqual([pid]);
    const other = sleeper();
    registry.add(other);
    registry.remove(other); // a flush runs; the persisted group must stay on disk
    await settle();
    expect(recorded(registryDir)).toEqual([pid]);
    registry.remove(pid);
    await registry.close();
  });
});
