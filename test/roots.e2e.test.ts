// Working Directory Roots through the real server (SPEC §11).

import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  errorText,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

const PWD = "process.stdout.write(process.cwd())";

let dir: string;
let servers: TestServer[] = [];

beforeEach(() => {
  dir = tempDir();
  servers = [];
});

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  removeDir(dir);
});

async function serverWith(roots: string[]) {
  const args = ["--manifest", writeManifest(dir), "--artifact-dir", path.join(dir, "artifacts")];
  for (const root of roots) args.push("--root", root);
  const server = await startServer({ args });
  servers.push(server);
  return server;
}

async function pwd(server: TestServer, cwd?: string) {
  return server.call("system_exec", {
    program: "node",
    args: ["-e", PWD],
    ...(cwd ? { cwd } : {}),
  });
}

describe("one Root", () => {
  it("uses the Root by default, takes relative and absolute cwds inside it", async () => {
    const root = path.join(dir, "root");
    mkdirSync(path.join(root, "sub/deeper"), { recursive: true });
    const server = await serverWith([root]);
    expect((await pwd(server)).structuredContent).toMatchObject({ stdout: { text: root } });
    expect((await pwd(server, "sub/deeper")).structuredContent).toMatchObject({
      stdout: { text: path.join(root, "sub/deeper") },
    });
    expect((await pwd(server, path.join(root, "sub"))).structuredContent).toMatchObject({
      stdout: { text: path.join(root, "sub") },
    });
  });

  it("refuses cwds outside the Root, through .. and through a symlink", async () => {
    const root = path.join(dir, "root");
    mkdirSync(root);
    symlinkSync(dir, path.join(root, "escape"));
    const server = await serverWith([root]);
    for (const cwd of [dir, "..", "escape", path.join(root, "escape")]) {
      const result = await pwd(server, cwd);
      expect(result.isError, cwd).toBe(true);
      expect(errorText(result)).toMatch(/^CWD_NOT_ALLOWED: /);
    }
  });

  it("says CWD_NOT_FOUND for a missing directory or a file", async () => {
    const root = path.join(dir, "root");
    mkdirSync(root);
    writeFileSync(path.join(root, "file"), "x");
    const server = await serverWith([root]);
    expect(errorText(await pwd(server, "missing"))).toMatch(/^CWD_NOT_FOUND: /);
    expect(errorText(await pwd(server, "file"))).toMatch(/^CWD_NOT_FOUND: /);
  });
});

describe("several Roots", () => {
  it("requires an absolute cwd, and drops duplicate and nested Roots", async () => {
    const a = path.join(dir, "a");
    const b = path.join(dir, "b");
    mkdirSync(path.join(a, "nested"), { recursive: true });
    mkdirSync(b);
    const server = await serverWith([a, b, path.join(a, "nested"), a]);
    const env = (await server.call("system_environment")).structuredContent as any;
    expect(env.roots).toEqual([a, b]);
    expect(env.cwd).toBe(a);
    expect(errorText(await pwd(server))).toMatch(/^CWD_NOT_ALLOWED: /);
    expect(errorText(await pwd(server, "nested"))).toMatch(/^CWD_NOT_ALLOWED: /);
    expect((await pwd(server, b)).structuredContent).toMatchObject({ stdout: { text: b } });
  });

  it("reports ROOT_UNAVAILABLE for a Root that vanished or was replaced, others keep working", async () => {
    const a = path.join(dir, "a");
    const b = path.join(dir, "b");
    mkdirSync(a);
    mkdirSync(b);
    const server = await serverWith([a, b]);
    renameSync(a, path.join(dir, "a-moved"));
    expect(errorText(await pwd(server, a))).toMatch(/^ROOT_UNAVAILABLE: /);
    mkdirSync(a); // same path, another directory
    expect(errorText(await pwd(server, a))).toMatch(/^ROOT_UNAVAILABLE: /);
    expect((await pwd(server, b)).structuredContent).toMatchObject({ stdout: { text: b } });
  });

  it("refuses a symlink in one Root that leads into a vanished Root", async () => {
    const a = path.join(dir, "a");
    const b = path.join(dir, "b");
    mkdirSync(a);
    mkdirSync(b);
    symlinkSync(b, path.join(a, "to-b"));
    const server = await serverWith([a, b]);
    expect((await pwd(server, path.join(a, "to-b"))).structuredContent).toMatchObject({
      stdout: { text: b },
    });
    renameSync(b, path.join(dir, "b-moved"));
    mkdirSync(b);
    expect(errorText(await pwd(server, path.join(a, "to-b")))).toMatch(/^ROOT_UNAVAILABLE: /);
  });
});

describe("startup", () => {
  it("refuses a Root that is not a directory (exit 1)", async () => {
    const { spawnSync } = await import("node:child_process");
    const { CLI_ENTRY } = await import("./helpers/server.js");
    const run = spawnSync(
      process.execPath,
      [CLI_ENTRY, "serve", "--root", path.join(dir, "missing")],
      { encoding: "utf8", input: "", timeout: 30_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/system-command-mcp: ROOT_NOT_DIRECTORY: /);
    expect(run.stdout).toBe("");
  });

  it("requires --root with --manifest (exit 2)", async () => {
    const { spawnSync } = await import("node:child_process");
    const { CLI_ENTRY } = await import("./helpers/server.js");
    const run = spawnSync(
      process.execPath,
      [CLI_ENTRY, "serve", "--manifest", writeManifest(dir)],
      {
        encoding: "utf8",
        input: "",
        timeout: 30_000,
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/system-command-mcp: ROOT_REQUIRED: /);
  });
});
