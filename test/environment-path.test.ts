// The effective PATH (SPEC §9.5): search path, inherited PATH, per-program PATH.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { prependToPath } from "../src/environment/path-list.js";
import { loadCatalog } from "../src/programs/load-catalog.js";
import { rejected, tempTreePerTest, writeExecutable, writeManifest } from "./manifest-fixtures.js";

const tree = tempTreePerTest();

const startupEnv = { PATH: "/inherited/one::/inherited/two:" };

describe("the global PATH", () => {
  it("is exactly the search path when allowInheritedPath is false: platform entries, then base, expanded", async () => {
    const dir = tree.dir();
    const home = tree.dir();
    writeExecutable(path.join(dir, "bin"), "tool");
    const file = writeManifest(dir, {
      version: 2,
      searchPath: ["./bin", "~/local/bin", "", "/opt/base"],
      platforms: { linux: { searchPath: ["/opt/linux"] }, darwin: { searchPath: ["/opt/darwin"] } },
      programs: { tool: { candidates: ["tool"] } },
    });
    const catalog = await loadCatalog({
      manifestPath: file,
      startupEnv,
      platform: "linux",
      homeDir: home,
    });
    const expected = [
      "/opt/linux",
      path.join(dir, "bin"),
      path.join(home, "local", "bin"),
      "/opt/base",
    ];
    expect(catalog.globalPath).toEqual(expected);
    expect(catalog.globalEnv.PATH).toBe(expected.join(":"));
    expect(catalog.programs.get("tool")?.pathDirs).toEqual(expected);
    expect(catalog.programs.get("tool")?.pathDiffers).toBe(false);
  });

  it("appends the inherited PATH without empty entries when allowInheritedPath is true", async () => {
    const dir = tree.dir();
    const tool = writeExecutable(dir, "tool");
    const manifest = {
      version: 2,
      searchPath: ["/first"],
      allowInheritedPath: true,
      programs: { tool: { candidates: [tool] } },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    expect(catalog.globalPath).toEqual(["/first", "/inherited/one", "/inherited/two"]);
  });

  it("lets a platform turn allowInheritedPath on", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const manifest = {
      version: 2,
      platforms: { linux: { allowInheritedPath: true } },
      programs: { tool: { candidates: [tool] } },
    };
    expect((await loadCatalog({ manifest, startupEnv, platform: "linux" })).globalPath).toEqual([
      "/inherited/one",
      "/inherited/two",
    ]);
    expect((await loadCatalog({ manifest, startupEnv, platform: "darwin" })).globalPath).toEqual(
      [],
    );
  });

  it("is empty, and PATH unset, with no search path and no inheritance", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const catalog = await loadCatalog({
      manifest: { version: 2, programs: { tool: { candidates: [tool] } } },
      startupEnv,
      platform: "linux",
    });
    expect(catalog.globalPath).toEqual([]);
    expect(catalog.globalEnv.PATH).toBeUndefined();
  });

  it("needs a manifest file for ./ entries", async () => {
    const tool = writeExecutable(tree.dir(), "tool");
    const manifest = {
      version: 2,
      searchPath: ["./bin"],
      programs: { tool: { candidates: [tool] } },
    };
    expect((await rejected(loadCatalog({ manifest, startupEnv, platform: "linux" }))).code).toBe(
      "MANIFEST_DIRECTORY_REQUIRED",
    );
  });
});

describe("a program's PATH", () => {
  it("is the global PATH after its layers: it resolves the program and is its child's PATH", async () => {
    const global = tree.dir();
    const own = tree.dir();
    writeExecutable(global, "tool");
    writeExecutable(own, "tool");
    const manifest = {
      version: 2,
      searchPath: [global],
      programs: {
        mine: { candidates: ["tool"], environment: { set: { PATH: own } } },
        shared: { candidates: ["tool"] },
      },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    const mine = catalog.programs.get("mine");
    expect(mine?.spawnPath).toBe(path.join(own, "tool"));
    expect(mine?.pathDirs).toEqual([own]);
    expect(mine?.pathDiffers).toBe(true);
    expect(mine?.env.PATH).toBe(own);
    expect(catalog.programs.get("shared")?.spawnPath).toBe(path.join(global, "tool"));
  });

  it("removed means bare names do not resolve", async () => {
    const dir = tree.dir();
    const tool = writeExecutable(dir, "tool");
    const manifest = {
      version: 2,
      searchPath: [dir],
      programs: {
        bare: { candidates: ["tool"], environment: { remove: ["PATH"] } },
        absolute: { candidates: [tool], environment: { remove: ["PATH"] } },
      },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    expect([...catalog.programs.keys()]).toEqual(["absolute"]);
    expect(catalog.programs.get("absolute")?.pathDirs).toEqual([]);
    expect(catalog.programs.get("absolute")?.env.PATH).toBeUndefined();
    const required = {
      ...manifest,
      programs: { bare: { ...manifest.programs.bare, required: true } },
    };
    expect(
      (await rejected(loadCatalog({ manifest: required, startupEnv, platform: "linux" }))).code,
    ).toBe("REQUIRED_PROGRAM_UNAVAILABLE");
  });

  it("a global layer setting PATH changes the global PATH", async () => {
    const dir = tree.dir();
    writeExecutable(dir, "tool");
    const manifest = {
      version: 2,
      searchPath: ["/ignored"],
      environment: { set: { PATH: `${dir}:` } },
      programs: { tool: { candidates: ["tool"] } },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    expect(catalog.globalPath).toEqual([dir]);
    expect(catalog.programs.get("tool")?.spawnPath).toBe(path.join(dir, "tool"));
  });
});

describe("prependToPath (a Project Node's bin directory first)", () => {
  it("finds PATH by exact name on POSIX: a variable spelled Path is another variable", () => {
    const env = { Path: "/elsewhere", PATH: "/usr/bin:/bin" };
    const merged = prependToPath(env, "/node/bin", "linux");
    expect(merged).toEqual({ Path: "/elsewhere", PATH: "/node/bin:/usr/bin:/bin" });
    expect(env.PATH).toBe("/usr/bin:/bin");
  });

  it("sets PATH when it was unset", () => {
    expect(prependToPath({ Path: "/elsewhere" }, "/node/bin", "darwin")).toEqual({
      Path: "/elsewhere",
      PATH: "/node/bin",
    });
  });

  it("matches the name case-insensitively on Windows and keeps its spelling", () => {
    const merged = prependToPath({ Path: "C:\\Windows" }, "C:\\node", "win32");
    expect(merged).toEqual({ Path: "C:\\node;C:\\Windows" });
  });
});
