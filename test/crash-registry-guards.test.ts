// Two guards of the crash registry (SPEC §19) that no other test pinned (issue 24 mutants):
// the registry directory and files are private (0700 / 0600, whatever the umask), and reaping
// spares a group member that started before the recorded leader — such a process cannot have been
// started by the execution we recorded, so the group id now belongs to someone else.

import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GroupRegistry, reapDeadServers } from "../src/process/crash-registry.js";
import { pgidOf, scratchPerTest, startTicks } from "./helpers/proc.js";
import { eventually, isAlive } from "./helpers/server.js";

let dir: string;
const cleanup = scratchPerTest((made) => (dir = made));

/**
 * A process group whose leader has exited and whose one member (a sleep) lives on: the shape a
 * recorded group has once its leader is gone. Resolves the member's pid and the group id.
 */
async function orphanedGroup(): Promise<{ member: number; pgid: number }> {
  const leader = spawn("/bin/sh", ["-c", "sleep 60 </dev/null >/dev/null 2>&1 & echo $!"], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  leader.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  await new Promise((resolve) => leader.once("close", resolve));
  const member = Number(out.trim());
  expect(Number.isInteger(member) && member > 1, `member pid from ${JSON.stringify(out)}`).toBe(
    true,
  );
  cleanup.push(member);
  expect(pgidOf(member)).toBe(leader.pid);
  return { member, pgid: leader.pid! };
}

/** A dead server's registry file recording one group with the given leader start time. */
function recordDeadServer(registry: string, pgid: number, leaderStartTime: bigint): void {
  mkdirSync(registry, { recursive: true });
  // pid 2 ** 22 + 1 is above Linux's largest pid: never a live server.
  const deadPid = 2 ** 22 + 1;
  writeFileSync(
    path.join(registry, `${deadPid}-1.json`),
    JSON.stringify({
      serverPid: deadPid,
      serverStartTime: "1",
      groups: [{ pgid, leaderStartTime: String(leaderStartTime) }],
    }),
  );
}

describe.runIf(process.platform === "linux")("crash registry guards", () => {
  it("spares a group member that started before the recorded leader", async () => {
    const registry = path.join(dir, "executions");
    const { member, pgid } = await orphanedGroup();
    recordDeadServer(registry, pgid, BigInt(startTicks(member)) + 1_000n);
    const report = reapDeadServers(registry);
    expect(report).toMatchObject({ files: 1, killed: 0, skippedGroups: 0 });
    expect(isAlive(member)).toBe(true);
    expect(readdirSync(registry)).toEqual([]);
  });

  it("kills a member that started at or after the recorded leader", async () => {
    const registry = path.join(dir, "executions");
    const { member, pgid } = await orphanedGroup();
    recordDeadServer(registry, pgid, BigInt(startTicks(member)));
    expect(reapDeadServers(registry)).toMatchObject({ files: 1, killed: 1 });
    expect(await eventually(() => !isAlive(member), 5_000)).toBe(true);
  });

  it("writes its directory 0700 and its file 0600 even under umask 022", async () => {
    const registryDir = path.join(dir, "state", "executions");
    const previous = process.umask(0o022);
    const child = spawn("/bin/sleep", ["30"], { stdio: "ignore" });
    cleanup.push(child.pid!);
    try {
      const registry = new GroupRegistry(registryDir);
      registry.add(child.pid!);
      await registry.persist();
      const files = readdirSync(registryDir);
      expect(files).toHaveLength(1);
      expect(statSync(registryDir).mode & 0o777).toBe(0o700);
      expect(statSync(path.join(registryDir, files[0]!)).mode & 0o777).toBe(0o600);
      registry.remove(child.pid!);
      await registry.close();
    } finally {
      process.umask(previous);
    }
  });
});
