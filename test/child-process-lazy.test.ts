// node:child_process is loaded on first use (src/child-process.ts): a start does not load it
// before it has answered tools/list (SPEC §16 cold start), and the server loads it once it has
// answered tools/list, before the first call needs it.

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRawServer } from "./helpers/raw-server.js";
import { baseEnv, configuredArgs, removeDir, tempDir } from "./helpers/server.js";

let dir: string;
beforeAll(() => {
  dir = tempDir("scm-child-process-");
});
afterAll(() => removeDir(dir));

/** The built-in modules a server run loaded, written when it exits. */
async function modulesLoaded(name: string, listTools: boolean): Promise<string[]> {
  const report = path.join(dir, `${name}.json`);
  const hook = path.join(dir, `${name}.cjs`);
  writeFileSync(
    hook,
    `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(report)},
       JSON.stringify(process.moduleLoadList)));`,
  );
  const server = startRawServer(configuredArgs(dir), {
    ...baseEnv(),
    NODE_OPTIONS: `--require ${hook}`,
  });
  await server.initialize();
  if (listTools) {
    server.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await server.response(1);
    // a ping answered after the list: the preload (scheduled right after it) has run
    server.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    await server.response(2);
  }
  server.child.stdin.end();
  const exit = await server.exited;
  expect(exit.code, server.stderr()).toBe(0);
  return JSON.parse(readFileSync(report, "utf8")) as string[];
}

describe("node:child_process", () => {
  it("is not loaded by a start that has only been initialized", async () => {
    const loaded = await modulesLoaded("initialized", false);
    expect(loaded).toContain("NativeModule fs"); // the report itself works
    expect(loaded).not.toContain("NativeModule child_process");
  });

  it("is loaded once tools/list has been answered", async () => {
    const loaded = await modulesLoaded("listed", true);
    expect(loaded).toContain("NativeModule child_process");
  });
});
