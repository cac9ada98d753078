// The raw stdio helper itself: a write racing the server's exit must not become an unhandled
// EPIPE (that failed the whole run with exit 1 after every test passed).

import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startRawServer, type RawServer } from "./helpers/raw-server.js";
import { eventually, removeDir, tempDir } from "./helpers/server.js";

let dir: string | undefined;
let server: RawServer | undefined;

afterEach(() => {
  if (server && server.child.exitCode === null) server.child.kill("SIGKILL");
  server = undefined;
  if (dir) removeDir(dir);
  dir = undefined;
});

describe("raw-server helper", () => {
  it.runIf(process.platform === "linux")(
    "absorbs EPIPE from writes to a server that already exited",
    async () => {
      // The race is provoked on purpose (see isZombie); a few servers in case one still misses it.
      let sawEpipe = false;
      for (let attempt = 0; attempt < RACE_ATTEMPTS && !sawEpipe; attempt++) {
        sawEpipe = await writeAfterDeath();
      }
      expect(sawEpipe).toBe(true);
    },
    120_000,
  );
});

const RACE_ATTEMPTS = 5;

/** Kills a server and writes to it once it is a zombie; true when the helper reported EPIPE. */
async function writeAfterDeath(): Promise<boolean> {
  dir = tempDir();
  server = startRawServer(["--root", dir, "--artifact-dir", `${dir}/artifacts`]);
  await server.initialize();
  // Write once the server is dead but before this process has seen its exit: block the event
  // loop until /proc says zombie, so the exit cannot be noticed first; that write gets EPIPE.
  const child = server.child;
  const pid = child.pid!;
  child.kill("SIGKILL");
  const deadline = Date.now() + 10_000;
  while (!isZombie(pid) && Date.now() < deadline) {
    // busy-wait on purpose (bounded)
  }
  expect(isZombie(pid)).toBe(true);
  const ping = { jsonrpc: "2.0", id: 7, method: "ping" };
  child.stdin.write(JSON.stringify(ping) + "\n");
  expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
  server.send(ping); // dropped by the helper: stdin is gone
  await eventually(() => server!.stdinError() !== undefined, 2_000);
  const error = server.stdinError() as NodeJS.ErrnoException | undefined;
  removeDir(dir);
  dir = undefined;
  server = undefined;
  if (error === undefined) return false;
  expect(error.code).toBe("EPIPE");
  return true;
}

/**
 * Whether a pid's whole process has exited but is not reaped yet: its leader is a zombie (Linux
 * /proc state Z) AND no other thread is left. A multi-threaded process (Node has a dozen) shows
 * its leader as Z while the other threads are still exiting, and its file table, with the far
 * end of our stdin pipe, is only closed with the last thread: a write before then succeeds.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z") && /^Threads:\s+1$/m.test(status);
  } catch {
    return false;
  }
}
