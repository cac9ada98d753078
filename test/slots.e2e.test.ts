// A call refused after it took its concurrency slot gives the slot back (SPEC §6.6): bad cwd,
// ROOT_UNAVAILABLE, Project Node selection errors and SPAWN_FAILED. With one slot, a leak would
// refuse every later call with CONCURRENCY_LIMIT.

import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPosix } from "./node-fixtures.js";
import {
  errorText,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

/** More refusals than any slot count a test could hide behind. */
const REFUSALS_PER_KIND = 3;

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = tempDir("scm-slots-");
  const installs = path.join(dir, "installs");
  await installPosix(installs, "v20.1.0");
  const work = path.join(dir, "work");
  mkdirSync(path.join(work, "badpin"), { recursive: true });
  writeFileSync(path.join(work, "badpin", ".nvmrc"), "99.0.0\n");
  const vanishing = path.join(dir, "vanishing");
  mkdirSync(vanishing);
  const gone = path.join(dir, "bin", "gone");
  mkdirSync(path.dirname(gone));
  writeFileSync(gone, "#!/bin/sh\necho never\n");
  chmodSync(gone, 0o755);
  const manifest = writeManifest(dir, {
    version: 2,
    searchPath: ["/usr/bin", "/bin"],
    programs: {
      sh: { candidates: ["/bin/sh"] },
      gone: { candidates: [gone] },
      node: { candidates: [process.execPath] },
    },
    projectNode: {
      enabledRoots: [work],
      installationRoots: [installs],
      defaultVersion: "20.1.0",
    },
  });
  server = await startServer({
    args: [
      "--manifest",
      manifest,
      "--root",
      work,
      "--root",
      vanishing,
      "--artifact-dir",
      path.join(dir, "artifacts"),
      "--max-concurrent-executions",
      "1",
    ],
  });
  // Both exist at startup (the program resolves, the root is accepted); then they go.
  rmSync(gone);
  rmSync(vanishing, { recursive: true });
}, 60_000);

afterAll(async () => {
  await server?.close();
  removeDir(dir);
});

/** The refused calls: cwd paths are absolute (with two Roots a relative cwd is refused early). */
const refusals: [string, (dir: string) => Record<string, unknown>, RegExp][] = [
  ["a cwd outside every root", () => ({ program: "sh", cwd: "/" }), /^CWD_NOT_ALLOWED: /],
  [
    "a missing cwd",
    (dir) => ({ program: "sh", cwd: path.join(dir, "work", "no-such-dir") }),
    /^CWD_NOT_FOUND: /,
  ],
  [
    "a root that vanished",
    (dir) => ({ program: "sh", cwd: path.join(dir, "vanishing") }),
    /^ROOT_UNAVAILABLE: /,
  ],
  [
    "a Project Node pin nothing satisfies",
    (dir) => ({ program: "node", args: ["-v"], cwd: path.join(dir, "work", "badpin") }),
    /^PROJECT_NODE_VERSION_UNAVAILABLE: /,
  ],
  [
    "an executable deleted after startup",
    (dir) => ({ program: "gone", cwd: path.join(dir, "work") }),
    /^SPAWN_FAILED: /,
  ],
];

describe("slots of refused calls", () => {
  it.each(refusals)("%s: refused, and the slot comes back", async (_name, args, code) => {
    for (let i = 0; i < REFUSALS_PER_KIND; i++) {
      const refused = await server.call("system_exec", args(dir));
      expect(refused.isError).toBe(true);
      expect(errorText(refused)).toMatch(code);
    }
    const ok = await server.exec({
      program: "sh",
      args: ["-c", "echo ok"],
      cwd: path.join(dir, "work"),
    });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout.text).toBe("ok\n");
  });
});
