// The cwd check and the child's chdir refer to the same directory (§11, §17; #14): with a
// concurrent loop swapping a directory inside the Root for a symlink leading out of it
// (renameat2 RENAME_EXCHANGE), no program ever starts outside the Root.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

/** Swaps two paths atomically in a tight loop until killed; prints READY once it runs. */
const SWAPPER = `
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
    sys.exit("renameat2 failed: errno %d" % ctypes.get_errno())
print("READY", flush=True)
while True:
    libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
`;

const RUN_FOR_MS = 20_000;
const MAX_CALLS = 600;
const LANES = 4;
const MIN_CALLS = 60;

let dir: string;
let root: string;
let outside: string;
let server: TestServer;
let swapper: ChildProcess | undefined;

beforeAll(async () => {
  dir = tempDir();
  root = path.join(dir, "root");
  outside = path.join(dir, "outside");
  mkdirSync(path.join(root, "x"), { recursive: true });
  mkdirSync(outside);
  symlinkSync(outside, path.join(root, "y"));
  const manifest = writeManifest(dir, {
    version: 2,
    programs: { sh: { candidates: ["/bin/sh"] } },
  });
  server = await startServer({ args: ["--manifest", manifest, "--root", root] });
});

afterAll(async () => {
  if (swapper?.pid && swapper.exitCode === null) swapper.kill("SIGKILL");
  await server?.close();
  if (dir) removeDir(dir);
});

/** Starts the swapper and resolves once it has swapped once (its READY line). */
function startSwapper(): Promise<ChildProcess> {
  const child = spawn("python3", ["-c", SWAPPER, path.join(root, "x"), path.join(root, "y")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("READY")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`swapper exited ${code}: ${stderr}`)));
  });
}

describe.runIf(process.platform === "linux")("cwd check against a rename race", () => {
  it("never starts a program outside its Root", async () => {
    swapper = await startSwapper();
    const deadline = Date.now() + RUN_FOR_MS;
    const started: string[] = [];
    let refused = 0;
    let calls = 0;
    const lane = async () => {
      while (Date.now() < deadline && calls < MAX_CALLS) {
        calls += 1;
        const result = await server.call("system_exec", {
          program: "sh",
          args: ["-c", "pwd -P"],
          cwd: "x",
        });
        if (result.isError) {
          refused += 1;
          continue;
        }
        started.push((result.structuredContent as any).stdout.text.trim());
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    swapper.kill("SIGKILL");
    expect(calls).toBeGreaterThanOrEqual(MIN_CALLS);
    const escaped = started.filter((cwd) => !cwd.startsWith(root + path.sep) && cwd !== root);
    expect({ escaped: escaped.length, of: started.length }).toEqual({
      escaped: 0,
      of: started.length,
    });
    // Both outcomes happen: the race really ran (some calls refused, some started).
    expect(started.length).toBeGreaterThanOrEqual(10);
    expect(refused).toBeGreaterThan(0);
  }, 60_000);
});
