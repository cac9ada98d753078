// Candidate resolution in Configured Mode (SPEC §1, §9.2, §10).

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../src/programs/load-catalog.js";
import {
  rejected,
  tempTreePerTest,
  writeExecutable,
  writeFile,
  writeManifest,
} from "./manifest-fixtures.js";
import {
  DEFAULT_BACKGROUND_TIMEOUT_MS,
  DEFAULT_FINAL_TERMINATION_WAIT_MS,
  DEFAULT_GRACE_PERIOD_MS,
  MAX_FOREGROUND_TIMEOUT_MS,
} from "../src/limits.js";

const tree = tempTreePerTest();

type Json = Record<string, unknown>;
const linux = "linux" as const;

/** Loads an in-memory manifest (no file) on Linux. */
function load(manifest: Json, extra: Json = {}) {
  return loadCatalog({ manifest, startupEnv: {}, platform: linux, ...extra });
}

describe("candidate forms", () => {
  it("an absolute path", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({ version: 2, programs: { tool: { candidates: [tool] } } });
    const program = catalog.programs.get("tool");
    expect(program).toMatchObject({
      spawnPath: tool,
      declaredCandidate: tool,
      kind: "native",
      required: false,
    });
  });

  it("a ~/ path, expanded with the home directory", async () => {
    const home = tree.dir();
    const tool = writeExecutable(path.join(home, "bin"), "tool");
    const catalog = await load(
      { version: 2, programs: { tool: { candidates: ["~/bin/tool"] } } },
      { homeDir: home },
    );
    expect(catalog.programs.get("tool")?.spawnPath).toBe(tool);
  });

  it("./ and ../ paths, relative to the manifest file's directory", async () => {
    const root = tree.dir();
    const one = writeExecutable(path.join(root, "conf", "bin"), "one");
    const two = writeExecutable(path.join(root, "tools"), "two");
    const file = writeManifest(path.join(root, "conf"), {
      version: 2,
      programs: { one: { candidates: ["./bin/one"] }, two: { candidates: ["../tools/two"] } },
    });
    const catalog = await loadCatalog({ manifestPath: file, startupEnv: {}, platform: linux });
    expect(catalog.programs.get("one")?.spawnPath).toBe(one);
    expect(catalog.programs.get("two")?.spawnPath).toBe(two);
  });

  it("./ without a manifest file is MANIFEST_DIRECTORY_REQUIRED", async () => {
    const error = await rejected(
      load({ version: 2, programs: { tool: { candidates: ["./bin/tool"] } } }),
    );
    expect(error.code).toBe("MANIFEST_DIRECTORY_REQUIRED");
    expect(error.message).toContain("./bin/tool");
  });

  it("a bare name on the program's PATH", async () => {
    const dir = tree.dir();
    const tool = writeExecutable(dir, "tool");
    const catalog = await load({
      version: 2,
      searchPath: ["/nonexistent", dir],
      programs: { tool: { candidates: ["tool"] } },
    });
    expect(catalog.programs.get("tool")).toMatchObject({
      spawnPath: tool,
      declaredCandidate: "tool",
    });
  });

  it("a Windows path never resolves on POSIX, and the next candidate is tried", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({
      version: 2,
      programs: { tool: { candidates: ["C:\\Tools\\tool.exe", "C:/Tools/tool.exe", tool] } },
    });
    expect(catalog.programs.get("tool")?.declaredCandidate).toBe(tool);
  });

  it("skips relative PATH directories", async () => {
    const catalog = await load(
      { version: 2, searchPath: ["."], programs: { sh: { candidates: ["sh", "/bin/sh"] } } },
      {},
    );
    expect(catalog.programs.get("sh")?.declaredCandidate).toBe("/bin/sh");
  });
});

describe("what qualifies", () => {
  it("skips files that are not executable, and directories", async () => {
    const dir = tree.dir();
    writeFile(path.join(dir, "a", "tool"), "#!/bin/sh\n", 0o644);
    mkdirSync(path.join(dir, "b", "tool"), { recursive: true });
    const good = writeExecutable(path.join(dir, "c"), "tool");
    const searchPath = ["a", "b", "c"].map((name) => path.join(dir, name));
    const catalog = await load({
      version: 2,
      searchPath,
      programs: { tool: { candidates: ["tool"] } },
    });
    expect(catalog.programs.get("tool")?.spawnPath).toBe(good);
  });

  it("spawns through the found path and reports the real path", async () => {
    const dir = tree.dir();
    const real = writeExecutable(path.join(dir, "real"), "python3.12");
    mkdirSync(path.join(dir, "venv"));
    const link = path.join(dir, "venv", "python");
    symlinkSync(real, link);
    const catalog = await load({ version: 2, programs: { python: { candidates: [link] } } });
    expect(catalog.programs.get("python")).toMatchObject({ spawnPath: link, executable: real });
    expect(catalog.details[0]?.winner).toEqual({
      candidate: link,
      foundPath: link,
      realPath: real,
    });
  });

  it("a .cmd or .bat executable is a cmd-script", async () => {
    const dir = tree.dir();
    const cmd = writeExecutable(dir, "build.CMD");
    const bat = writeExecutable(dir, "run.bat");
    const catalog = await load({
      version: 2,
      programs: { build: { candidates: [cmd] }, run: { candidates: [bat] } },
    });
    expect(catalog.programs.get("build")?.kind).toBe("cmd-script");
    expect(catalog.programs.get("run")?.kind).toBe("cmd-script");
  });
});

describe("first candidate wins; shadowed candidates are reported", () => {
  it("takes the first candidate that resolves and lists later matches", async () => {
    const first = tree.dir();
    const second = tree.dir();
    const a = writeExecutable(first, "tool");
    const b = writeExecutable(second, "tool");
    const other = writeExecutable(second, "other");
    const catalog = await load({
      version: 2,
      searchPath: [first, second],
      programs: { tool: { candidates: ["missing", "tool", other] } },
    });
    expect(catalog.programs.get("tool")).toMatchObject({ spawnPath: a, declaredCandidate: "tool" });
    expect(catalog.details).toEqual([
      {
        name: "tool",
        required: false,
        enabled: true,
        candidates: ["missing", "tool", other],
        winner: { candidate: "tool", foundPath: a, realPath: a },
        shadowed: [b, other],
      },
    ]);
  });
});

describe("Core and Optional programs", () => {
  it("an optional program that does not resolve is not registered", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({
      version: 2,
      programs: { tool: { candidates: [tool] }, gone: { candidates: ["/nonexistent/gone"] } },
    });
    expect([...catalog.programs.keys()]).toEqual(["tool"]);
    expect(catalog.details[1]).toEqual({
      name: "gone",
      required: false,
      enabled: true,
      candidates: ["/nonexistent/gone"],
      shadowed: [],
    });
  });

  it("a required program that does not resolve stops startup", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const error = await rejected(
      load({
        version: 2,
        programs: {
          tool: { candidates: [tool] },
          gone: { candidates: ["gone", "/x/gone"], required: true },
        },
      }),
    );
    expect(error.code).toBe("REQUIRED_PROGRAM_UNAVAILABLE");
    expect(error.message).toContain('"gone"');
    expect(error.message).toContain('"/x/gone"');
  });

  it("a required program that resolves is registered as required", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({
      version: 2,
      programs: { tool: { candidates: [tool], required: true } },
    });
    expect(catalog.programs.get("tool")?.required).toBe(true);
  });

  it("enabled: false is never resolved nor registered", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({
      version: 2,
      programs: {
        tool: { candidates: [tool] },
        off: { candidates: [tool, "./relative"], enabled: false },
      },
    });
    expect([...catalog.programs.keys()]).toEqual(["tool"]);
    expect(catalog.details[1]).toEqual({
      name: "off",
      required: false,
      enabled: false,
      candidates: [tool, "./relative"],
      shadowed: [],
    });
  });

  it("a platform can enable or disable a program", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const manifest = {
      version: 2,
      programs: { tool: { candidates: [tool] }, extra: { candidates: [tool], enabled: false } },
      platforms: { linux: { programs: { extra: { enabled: true }, tool: { enabled: false } } } },
    };
    expect([...(await load(manifest)).programs.keys()]).toEqual(["extra"]);
    expect([...(await load(manifest, { platform: "darwin" })).programs.keys()]).toEqual(["tool"]);
  });

  it("no registered program at all is NO_PROGRAMS_REGISTERED", async () => {
    const error = await rejected(
      load({ version: 2, programs: { gone: { candidates: ["/nonexistent/gone"] } } }),
    );
    expect(error.code).toBe("NO_PROGRAMS_REGISTERED");
  });
});

describe("policies, probes and the rest of the catalog", () => {
  it("fills in policy defaults and leaves defaultTimeoutMs absent", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({
      version: 2,
      programs: {
        plain: { candidates: [tool] },
        tuned: {
          candidates: [tool],
          policy: {
            defaultTimeoutMs: 10,
            maxTimeoutMs: 20,
            allowBackground: true,
            artifactPolicy: "never",
          },
        },
      },
    });
    expect(catalog.programs.get("plain")?.policy).toEqual({
      maxTimeoutMs: MAX_FOREGROUND_TIMEOUT_MS,
      allowStdin: false,
      gracePeriodMs: DEFAULT_GRACE_PERIOD_MS,
      finalTerminationWaitMs: DEFAULT_FINAL_TERMINATION_WAIT_MS,
      artifactPolicy: "on-truncation",
      allowBackground: false,
      maxBackgroundTimeoutMs: DEFAULT_BACKGROUND_TIMEOUT_MS,
    });
    expect(catalog.programs.get("tuned")?.policy).toMatchObject({
      defaultTimeoutMs: 10,
      maxTimeoutMs: 20,
      allowBackground: true,
      artifactPolicy: "never",
    });
  });

  it("parses probes with their defaults and reports mode and version", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await load({
      version: 2,
      programs: { tool: { candidates: [tool] } },
      probes: { tool: { args: ["--version"], cwd: "/tmp" } },
    });
    expect(catalog.mode).toBe("configured");
    expect(catalog.manifestVersion).toBe(2);
    expect(catalog.manifestPath).toBeUndefined();
    expect(catalog.probes).toEqual({
      tool: { args: ["--version"], acceptedExitCodes: [0], cwd: "/tmp" },
    });
  });

  it("a #!/usr/bin/env node script is found through the search path, whose PATH reaches node", async () => {
    const scripts = tree.dir();
    const script = writeExecutable(
      scripts,
      "hello",
      "#!/usr/bin/env node\nconsole.log('hello');\n",
    );
    const nodeDir = path.dirname(process.execPath);
    const manifest = {
      version: 2,
      searchPath: [scripts, nodeDir],
      programs: { hello: { candidates: ["hello"], required: true } },
    };
    const catalog = await load(manifest, { startupEnv: { PATH: "/somewhere/else" } });
    const hello = catalog.programs.get("hello");
    expect(hello?.spawnPath).toBe(script);
    expect(hello?.env.PATH).toBe(`${scripts}:${nodeDir}`);
    const withoutSearchPath = { version: 2, programs: manifest.programs };
    const error = await rejected(
      load(withoutSearchPath, { startupEnv: { PATH: `${scripts}:${nodeDir}` } }),
    );
    expect(error.code).toBe("REQUIRED_PROGRAM_UNAVAILABLE");
  });

  it("registers 100 programs", async () => {
    const dir = tree.dir();
    const programs: Record<string, Json> = {};
    for (let index = 0; index < 100; index += 1) {
      writeExecutable(dir, `tool${index}`);
      programs[`tool${index}`] = { candidates: [`missing${index}`, `tool${index}`] };
    }
    const search = Array.from({ length: 10 }, () => tree.dir());
    const started = performance.now();
    const catalog = await load({ version: 2, searchPath: [...search, dir], programs });
    const elapsed = performance.now() - started;
    expect(catalog.programs.size).toBe(100);
    console.log(`100 programs resolved in ${elapsed.toFixed(1)} ms`);
  });
});

describe("Windows rules, simulated with a platform parameter", () => {
  const win = "win32" as const;

  it("tries PATHEXT extensions for a candidate without one", async () => {
    const dir = tree.dir();
    writeFileSync(path.join(dir, "tool"), "not a program");
    const exe = writeFile(path.join(dir, "tool.exe"), "MZ");
    const catalog = await load(
      {
        version: 2,
        searchPath: [dir],
        pathExt: ".com;.exe",
        programs: { tool: { candidates: ["tool"] } },
      },
      { platform: win },
    );
    expect(catalog.programs.get("tool")).toMatchObject({ spawnPath: exe, kind: "native" });
    expect(catalog.globalEnv.PATHEXT).toBe(".com;.exe");
  });

  it("a .cmd found through PATHEXT is a cmd-script", async () => {
    const dir = tree.dir();
    const cmd = writeFile(path.join(dir, "npm.cmd"), "@echo off");
    const catalog = await load(
      {
        version: 2,
        searchPath: [dir],
        pathExt: ".exe;.cmd",
        programs: { npm: { candidates: ["npm"] } },
      },
      { platform: win },
    );
    expect(catalog.programs.get("npm")).toMatchObject({ spawnPath: cmd, kind: "cmd-script" });
  });

  it("skips zero-length App Execution Alias stubs under WindowsApps", async () => {
    const root = tree.dir();
    const apps = path.join(root, "WindowsApps");
    writeFile(path.join(apps, "python.exe"), "");
    const real = writeFile(path.join(root, "Python312", "python.exe"), "MZ");
    const manifest = {
      version: 2,
      searchPath: [apps, path.dirname(real)],
      pathExt: ".exe",
      programs: { python: { candidates: ["python"] } },
    };
    const catalog = await load(manifest, { platform: win });
    expect(catalog.programs.get("python")?.spawnPath).toBe(real);
  });

  it("matches environment names case-insensitively and keeps the startup spelling of Path", async () => {
    const dir = tree.dir();
    writeFile(path.join(dir, "git.exe"), "MZ");
    const catalog = await load(
      {
        version: 2,
        allowInheritedPath: true,
        pathExt: ".exe",
        programs: { git: { candidates: ["git"] } },
      },
      { platform: win, startupEnv: { Path: dir, PathExt: ".COM" } },
    );
    expect(catalog.globalEnv).toEqual({ Path: dir, PathExt: ".exe" });
    expect(catalog.programs.get("git")?.spawnPath).toBe(path.join(dir, "git.exe"));
  });
});
