// The tarball ships what runs (SPEC §13): the entry, its bundles and their licences, the
// schema, the example, the docs and guidance — no unbundled tsc output, no source maps. The file
// set alone (plus the runtime dependencies) runs exec, doctor and serve.

import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, baseEnv, defaultManifest, removeDir, tempDir } from "./helpers/server.js";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const RUN_TIMEOUT_MS = 30_000;

/** What dist/cli/main.js loads at run time: itself, the CommonJS marker, the bundles. */
const RUNTIME_DIST = [
  "dist/THIRD_PARTY_LICENSES",
  "dist/cli/bundle/cli.cjs",
  "dist/cli/bundle/re2.cjs",
  "dist/cli/bundle/sdk.cjs",
  "dist/cli/bundle/semver.cjs",
  "dist/cli/bundle/tool-validators.cjs",
  "dist/cli/bundle/validator.cjs",
  "dist/cli/main.js",
  "dist/cli/package.json",
];
const REQUIRED = [
  ...RUNTIME_DIST,
  "package.json",
  "README.md",
  "LICENSE",
  "AGENTS.md",
  "DSH.md",
  "system-command-manifest.schema.json",
  "system-command-manifest.example.json",
  "docs/cli.md",
  "docs/install/linux-agent.md",
];

let files: string[];
let dir: string;
let entry: string;

beforeAll(() => {
  // --ignore-scripts: list what the built tree would ship without rebuilding it (prepack).
  const listing = execFileSync(NPM, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: RUN_TIMEOUT_MS,
  });
  files = (JSON.parse(listing)[0].files as { path: string }[]).map((file) => file.path).sort();
  // The shipped files alone, with the runtime dependencies beside them as an install has them.
  dir = tempDir("scm-package-");
  const pkg = path.join(dir, "pkg");
  for (const file of files) {
    mkdirSync(path.dirname(path.join(pkg, file)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, file), path.join(pkg, file));
  }
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(pkg, "node_modules"), "dir");
  entry = path.join(pkg, "dist/cli/main.js");
});

afterAll(() => {
  if (dir) removeDir(dir);
});

describe("npm pack ships what runs", () => {
  it("lists no source map and no unbundled module, and every file that runs", () => {
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(files.filter((file) => file.startsWith("dist/"))).toEqual(RUNTIME_DIST);
    for (const file of REQUIRED) expect(files, file).toContain(file);
    expect(files.filter((file) => file.startsWith("src/") || file.startsWith("test/"))).toEqual([]);
  });

  it("runs exec, doctor and init from those files alone", () => {
    const env = baseEnv({
      XDG_CACHE_HOME: path.join(dir, "cache"),
      XDG_STATE_HOME: path.join(dir, "state"),
    });
    const work = path.join(dir, "work");
    mkdirSync(work);
    const run = (args: string[]) =>
      spawnSync(process.execPath, [entry, ...args], {
        cwd: work,
        env,
        encoding: "utf8",
        timeout: RUN_TIMEOUT_MS,
      });
    const exec = run(["exec", "--root", work, "node", "-e", "console.log(6 * 7)"]);
    expect(exec.status, exec.stderr).toBe(0);
    expect(JSON.parse(exec.stdout).stdout.text).toBe("42\n");
    const manifest = path.join(work, "m.json");
    const init = run(["init", "--yes", manifest, "--root", work]);
    expect(init.status, init.stderr).toBe(0);
    const doctor = run(["doctor", "--manifest", manifest, "--root", work, "--json"]);
    expect(doctor.status, doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout).ok).toBe(true);
    // An invalid manifest is explained through the schema shipped at the package root.
    const invalid = path.join(work, "bad.json");
    writeFileSync(invalid, JSON.stringify({ version: 2, programs: 5 }));
    const bad = run(["doctor", "--manifest", invalid, "--root", work]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_MANIFEST: .*\/programs/);
  });

  it("checks tool arguments with the shipped validators: no ajv needed for a call", async () => {
    // The installed tree without ajv: a server that compiled the tool schemas at run time (as
    // one did when the precompiled validators were not shipped) could not answer these calls.
    const pkg = path.join(dir, "pkg");
    const bare = path.join(dir, "pkg-no-ajv");
    mkdirSync(path.join(bare, "node_modules"), { recursive: true });
    for (const name of readdirSync(pkg)) {
      // copies, not links: Node runs the entry from its real path, and finds modules from there
      if (name !== "node_modules") {
        cpSync(path.join(pkg, name), path.join(bare, name), { recursive: true });
      }
    }
    const modules = path.join(REPO_ROOT, "node_modules");
    for (const name of readdirSync(modules)) {
      if (name === "ajv") continue;
      symlinkSync(path.join(modules, name), path.join(bare, "node_modules", name));
    }
    const work = path.join(dir, "no-ajv");
    mkdirSync(work);
    const manifest = path.join(work, "manifest.json");
    writeFileSync(manifest, JSON.stringify(defaultManifest()));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(bare, "dist/cli/main.js"), "serve", "--manifest", manifest, "--root", work],
      env: baseEnv({ XDG_CACHE_HOME: path.join(dir, "cache") }),
      stderr: "pipe",
    });
    const client = new Client({ name: "scm-package-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const bad = await client.callTool({
        name: "system_exec",
        arguments: { program: "node", timeoutMs: "soon" },
      });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain("INVALID_TIMEOUT: /timeoutMs must be integer");
      const good = await client.callTool({
        name: "system_exec",
        arguments: { program: "node", args: ["-e", "console.log(6 * 7)"] },
      });
      expect((good.structuredContent as { stdout: { text: string } }).stdout.text).toBe("42\n");
    } finally {
      await client.close();
    }
  });

  it("serves tools/list from those files alone", async () => {
    const work = path.join(dir, "serve");
    mkdirSync(work);
    const manifest = path.join(work, "manifest.json");
    writeFileSync(manifest, JSON.stringify(defaultManifest()));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [entry, "serve", "--manifest", manifest, "--root", work],
      env: baseEnv({ XDG_CACHE_HOME: path.join(dir, "cache") }),
      stderr: "pipe",
    });
    const client = new Client({ name: "scm-package-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("system_exec");
    } finally {
      await client.close();
    }
  });
});
