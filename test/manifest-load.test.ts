// Reading and parsing a manifest file (MANIFEST_READ_FAILED, MANIFEST_JSON_INVALID) and earlier-style manifests.

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

const tree = tempTreePerTest();

describe("loading a manifest file", () => {
  it("fails with MANIFEST_READ_FAILED when the file cannot be read", async () => {
    const missing = path.join(tree.dir(), "missing.json");
    const error = await rejected(loadCatalog({ manifestPath: missing, startupEnv: {} }));
    expect(error.code).toBe("MANIFEST_READ_FAILED");
    expect(error.message).toContain(missing);
    expect(error.message).toContain("ENOENT");
  });

  it("fails with MANIFEST_JSON_INVALID, giving the position but not the content", async () => {
    const file = writeFile(
      path.join(tree.dir(), "m.json"),
      '{\n  "version": 2,\n  "secret": "hunter2" oops\n}',
    );
    const error = await rejected(loadCatalog({ manifestPath: file, startupEnv: {} }));
    expect(error.code).toBe("MANIFEST_JSON_INVALID");
    expect(error.message).toContain("line 3");
    expect(error.message).not.toContain("hunter2");
  });

  it("fails with MANIFEST_JSON_INVALID on an empty file", async () => {
    const file = writeFile(path.join(tree.dir(), "m.json"), "");
    expect((await rejected(loadCatalog({ manifestPath: file, startupEnv: {} }))).code).toBe(
      "MANIFEST_JSON_INVALID",
    );
  });

  it("names the file and the field in INVALID_MANIFEST", async () => {
    const file = writeManifest(tree.dir(), {
      version: 2,
      programs: { git: { candidates: ["git"], bogus: 1 } },
    });
    const error = await rejected(loadCatalog({ manifestPath: file, startupEnv: {} }));
    expect(error.code).toBe("INVALID_MANIFEST");
    expect(error.message).toContain(file);
    expect(error.message).toContain("/programs/git/bogus");
  });

  it("accepts a UTF-8 byte order mark", async () => {
    const dir = tree.dir();
    const tool = writeExecutable(dir, "tool");
    const file = writeFile(
      path.join(dir, "m.json"),
      `\uFEFF${JSON.stringify({ version: 2, programs: { tool: { candidates: [tool] } } })}`,
    );
    const catalog = await loadCatalog({ manifestPath: file, startupEnv: {} });
    expect([...catalog.programs.keys()]).toEqual(["tool"]);
  });
});

describe("manifests written for the earlier implementation load unchanged", () => {
  it("a version 1 manifest with Windows candidates and nodeResolution", async () => {
    const dir = tree.dir();
    const bin = path.join(dir, "bin");
    writeExecutable(bin, "git");
    const manifest = {
      version: 1,
      allowInheritedPath: false,
      searchPath: [bin],
      nodeResolution: { enabled: false },
      programs: {
        git: { candidates: ["C:\\Program Files\\Git\\cmd\\git.exe", "git"], required: true },
        node: {
          candidates: ["C:\\Users\\someone\\AppData\\Roaming\\nvm\\v22.20.0\\node.exe"],
          required: false,
        },
        npm: {
          candidates: ["C:\\Users\\someone\\AppData\\Roaming\\nvm\\v22.20.0\\npm.cmd"],
          required: false,
        },
      },
    };
    const catalog = await loadCatalog({
      manifestPath: writeManifest(dir, manifest),
      startupEnv: {},
      platform: "linux",
    });
    expect(catalog.manifestVersion).toBe(1);
    expect([...catalog.programs.keys()]).toEqual(["git"]);
    expect(catalog.programs.get("git")?.declaredCandidate).toBe("git");
    expect(catalog.nodeResolution).toEqual({ enabled: false });
    expect(catalog.projectNode).toBeUndefined();
  });

  it("a version 2 manifest with ./ searchPath, projectNode and platform projectNode replacements", async () => {
    const dir = tree.dir();
    writeExecutable(path.join(dir, "tools", "bin"), "git");
    const manifest = {
      version: 2,
      allowInheritedPath: false,
      searchPath: ["./tools/bin"],
      projectNode: {
        enabledRoots: ["~/src"],
        installationRoots: ["~/.nvm/versions/node", "~/.local/share/fnm/node-versions"],
        defaultVersion: "22.14.0",
      },
      programs: {
        git: {
          candidates: ["C:/Program Files/Git/cmd/git.exe", "/opt/homebrew/bin/git", "git"],
          required: true,
        },
        node: {
          candidates: ["C:/Program Files/nodejs/node.exe", "/nonexistent/node"],
          required: false,
          policy: { maxTimeoutMs: 60000 },
        },
      },
      platforms: {
        win32: {
          searchPath: ["C:/Windows/System32"],
          pathExt: ".COM;.EXE;.BAT;.CMD",
          projectNode: {
            enabledRoots: ["C:/Users/example/src"],
            installationRoots: ["C:/Users/example/AppData/Roaming/nvm"],
            defaultVersion: "22.14.0",
            whenNoSelector: "active-manager",
            activeManagerLinks: ["C:/Program Files/nodejs"],
          },
        },
        darwin: {
          searchPath: ["/opt/homebrew/bin", "/usr/bin"],
          projectNode: {
            enabledRoots: ["/Users/example/src"],
            installationRoots: ["/Users/example/.nvm/versions/node"],
            defaultVersion: "22.14.0",
            whenNoSelector: "default-version",
          },
        },
      },
    };
    const file = writeManifest(dir, manifest);
    const catalog = await loadCatalog({ manifestPath: file, startupEnv: {}, platform: "linux" });
    expect(catalog.manifestVersion).toBe(2);
    expect(catalog.manifestPath).toBe(file);
    expect(catalog.globalPath).toEqual([path.join(dir, "tools", "bin")]);
    expect(catalog.programs.get("git")?.spawnPath).toBe(path.join(dir, "tools", "bin", "git"));
    expect(catalog.projectNode).toEqual(manifest.projectNode);
    const onDarwin = await loadCatalog({ manifestPath: file, startupEnv: {}, platform: "darwin" });
    expect(onDarwin.projectNode).toEqual(manifest.platforms.darwin.projectNode);
  });
});
