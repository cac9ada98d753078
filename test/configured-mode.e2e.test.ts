// Configured Mode through the real server (SPEC §9, §10, §12): what a manifest decides is what a
// child sees — its PATH, its environment, its program — and what init writes serves as written.

import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installPosix } from "./node-fixtures.js";
import {
  baseEnv,
  CLI_ENTRY,
  configuredArgs,
  removeDir,
  REPO_ROOT,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

let dir: string;
let servers: TestServer[];

beforeEach(() => {
  dir = tempDir();
  servers = [];
});

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  removeDir(dir);
});

async function serve(manifest: object, env = baseEnv()) {
  const server = await startServer({ args: configuredArgs(dir, manifest), env });
  servers.push(server);
  return server;
}

/** An executable script `name` in `binDir` with the given body. */
function script(binDir: string, name: string, body: string): string {
  mkdirSync(binDir, { recursive: true });
  const file = path.join(binDir, name);
  writeFileSync(file, body);
  chmodSync(file, 0o755);
  return file;
}

describe("configured mode", () => {
  it("runs an env-node script found only through searchPath, with exactly that PATH", async () => {
    const tools = path.join(dir, "tools");
    script(
      tools,
      "show-env",
      "#!/usr/bin/env node\n" +
        "process.stdout.write(JSON.stringify({ path: process.env.PATH, " +
        "lang: process.env.LANG ?? null, secret: process.env.SCM_SECRET ?? null, " +
        "copied: process.env.COPIED ?? null, optional: process.env.OPTIONAL_REF ?? null }))\n",
    );
    const searchPath = ["./tools", path.dirname(process.execPath)];
    const server = await serve(
      {
        version: 2,
        searchPath,
        environment: {
          remove: ["SCM_SECRET"],
          set: {
            LANG: "C.UTF-8",
            COPIED: { fromEnvironment: "SCM_SOURCE" },
            OPTIONAL_REF: { fromEnvironment: "SCM_ABSENT", required: false },
          },
        },
        programs: { "show-env": { candidates: ["show-env"] } },
      },
      baseEnv({ SCM_SECRET: "hidden", SCM_SOURCE: "from-startup", OPTIONAL_REF: "dropped" }),
    );
    const result = await server.exec({ program: "show-env" });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.text)).toEqual({
      path: [tools, path.dirname(process.execPath)].join(path.delimiter),
      lang: "C.UTF-8",
      secret: null,
      copied: "from-startup",
      optional: null,
    });
    const environment = (await server.call("system_environment")).structuredContent as any;
    expect(environment.path).toEqual([tools, path.dirname(process.execPath)]);
    expect(environment.environmentNames).toEqual(["COPIED", "LANG", "OPTIONAL_REF", "SCM_SECRET"]);
    expect(JSON.stringify(environment)).not.toContain("from-startup");
    expect(environment.programs["show-env"]).toMatchObject({
      declaredCandidate: "show-env",
      required: false,
      kind: "native",
    });
  });

  it("applies a program's own layer after the global one, and set wins over remove", async () => {
    const server = await serve({
      version: 2,
      searchPath: [path.dirname(process.execPath)],
      environment: { set: { LEVEL: "global", KEEP: "yes" } },
      programs: {
        node: {
          candidates: [process.execPath],
          environment: { remove: ["KEEP", "LEVEL"], set: { LEVEL: "program" } },
        },
      },
    });
    const result = await server.exec({
      program: "node",
      args: ["-e", "process.stdout.write(`${process.env.LEVEL}/${process.env.KEEP ?? 'none'}`)"],
    });
    expect(result.stdout.text).toBe("program/none");
  });

  it("stops startup for a missing required program or an invalid manifest (exit 1)", () => {
    const cases: [object, RegExp][] = [
      [
        { version: 2, programs: { gone: { candidates: ["/nonexistent/gone"], required: true } } },
        /REQUIRED_PROGRAM_UNAVAILABLE: /,
      ],
      [
        { version: 2, programs: { git: { candidates: ["git"], polcy: {} } } },
        /INVALID_MANIFEST: .*\/programs\/git\/polcy/,
      ],
      [
        { version: 2, programs: { x: { candidates: ["/bin/true"] } }, nodeResolution: {} },
        /INVALID_MANIFEST: .*nodeResolution/,
      ],
    ];
    for (const [manifest, expected] of cases) {
      const run = spawnSync(
        process.execPath,
        [CLI_ENTRY, "serve", "--manifest", writeManifest(dir, manifest), "--root", dir],
        { encoding: "utf8", input: "", timeout: 30_000, env: baseEnv() },
      );
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toMatch(expected);
      expect(run.stdout).toBe("");
    }
  });

  it("serves the example manifest's schema-valid shape and the shipped example validates", () => {
    // A home like the one the example is written for: its writablePaths entry (~/.npm) exists
    // (SPEC §20 checks it at startup), so only the schema and other machine paths are judged.
    const home = path.join(dir, "example-home");
    mkdirSync(path.join(home, ".npm"), { recursive: true });
    const run = spawnSync(
      process.execPath,
      [
        CLI_ENTRY,
        "doctor",
        "--manifest",
        path.join(REPO_ROOT, "system-command-manifest.example.json"),
        "--root",
        dir,
        "--json",
      ],
      { encoding: "utf8", timeout: 30_000, env: baseEnv({ HOME: home }) },
    );
    // The example names machine-specific paths; it must never fail on the schema.
    expect(run.stderr).not.toMatch(/INVALID_MANIFEST/);
  });

  it("init → doctor → serve: the generated manifest runs npm --version and git --version", async () => {
    const manifest = path.join(dir, "generated.json");
    const init = spawnSync(process.execPath, [CLI_ENTRY, "init", "--yes", manifest], {
      encoding: "utf8",
      timeout: 30_000,
      env: baseEnv(),
    });
    expect(init.status, init.stderr).toBe(0);
    const doctor = spawnSync(
      process.execPath,
      [CLI_ENTRY, "doctor", "--manifest", manifest, "--root", dir],
      { encoding: "utf8", timeout: 30_000, env: baseEnv() },
    );
    expect(doctor.status, doctor.stderr).toBe(0);
    const server = await startServer({
      args: ["--manifest", manifest, "--root", dir, "--artifact-dir", path.join(dir, "a")],
      env: { HOME: process.env.HOME ?? dir, XDG_STATE_HOME: path.join(dir, "state") },
    });
    servers.push(server);
    const npm = await server.exec({ program: "npm", args: ["--version"], timeoutMs: 60_000 });
    expect(npm.exitCode, npm.stderr.text).toBe(0);
    expect(npm.stdout.text).toMatch(/^\d+\.\d+\.\d+/);
    const git = await server.exec({ program: "git", args: ["--version"] });
    expect(git.stdout.text).toMatch(/^git version /);
  });
});

describe("Project Node through the server", () => {
  it("reports the variant set and runs each project's pinned version", async () => {
    const installs = path.join(dir, "installs");
    await installPosix(installs, "v20.1.0");
    await installPosix(installs, "v22.3.0");
    const project = path.join(dir, "project");
    mkdirSync(path.join(project, "sub"), { recursive: true });
    writeFileSync(path.join(project, ".nvmrc"), "22.3.0\n");
    const server = await serve({
      version: 2,
      programs: {
        node: { candidates: [process.execPath] },
        npm: { candidates: [process.execPath] },
      },
      projectNode: {
        enabledRoots: [dir],
        installationRoots: [installs],
        defaultVersion: "20.1.0",
      },
    });
    const environment = (await server.call("system_environment")).structuredContent as any;
    expect(environment.programs.node.variantSet.kind).toBe("node-project");
    const versions = environment.programs.node.variantSet.variants.map((v: any) => v.version);
    expect(versions.sort()).toEqual(["20.1.0", "22.3.0"]);

    const pinned = await server.exec({ program: "node", args: ["-v"], cwd: "project/sub" });
    expect(pinned.stdout.text).toBe("node 22.3.0 -v\n");
    expect(pinned.programSelection).toMatchObject({
      logicalName: "node",
      version: "22.3.0",
      source: ".nvmrc",
    });
    const fallback = await server.exec({ program: "node", args: ["-v"] });
    expect(fallback.stdout.text).toBe("node 20.1.0 -v\n");
    expect(fallback.programSelection.source).toBe("manifest#projectNode.defaultVersion");
    const npm = await server.exec({ program: "npm", args: ["ci"], cwd: "project" });
    expect(npm.stdout.text).toMatch(/^node 22\.3\.0 .*npm-cli\.js ci\n$/);
    expect(npm.programSelection.adapter).toBe("npm-cli");
  });
});
