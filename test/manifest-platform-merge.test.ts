// The platform merge of SPEC §9.6, rule by rule.

import { describe, expect, it } from "vitest";
import { mergePlatform } from "../src/manifest/platform-merge.js";
import type { Manifest } from "../src/manifest/types.js";

const base: Manifest = {
  version: 2,
  searchPath: ["/base/bin"],
  pathExt: ".EXE",
  allowInheritedPath: false,
  environment: { remove: ["A", "B"], set: { KEEP: "base", OVER: "base", Path: "/base" } },
  programs: {
    git: {
      candidates: ["git"],
      required: false,
      policy: { maxTimeoutMs: 1000, allowStdin: true },
      environment: { remove: ["X"], set: { P: "base", Q: "base" } },
    },
    hg: { candidates: ["hg"], enabled: false },
  },
  probes: { git: { args: ["--version"] } },
  projectNode: { enabledRoots: ["~/src"], installationRoots: ["/base"], defaultVersion: "20.0.0" },
  platforms: {
    linux: {
      searchPath: ["/linux/bin"],
      pathExt: ".CMD",
      allowInheritedPath: true,
      environment: { remove: ["C"], set: { OVER: "linux", NEW: "linux" } },
      programs: {
        git: {
          candidates: ["/usr/bin/git"],
          required: true,
          policy: { maxTimeoutMs: 2000 },
          environment: { set: { Q: "linux" } },
        },
        hg: { enabled: true },
      },
      projectNode: {
        enabledRoots: ["/linux"],
        installationRoots: ["/linux"],
        defaultVersion: "22.0.0",
      },
    },
    win32: {
      environment: { set: { PATH: "C:\\win" } },
    },
  },
};

describe("mergePlatform", () => {
  const linux = mergePlatform(base, "linux");

  it("puts platform searchPath entries before base entries", () => {
    expect(linux.searchPath).toEqual(["/linux/bin", "/base/bin"]);
  });

  it("replaces pathExt and allowInheritedPath", () => {
    expect(linux.pathExt).toBe(".CMD");
    expect(linux.allowInheritedPath).toBe(true);
  });

  it("replaces environment.remove and merges environment.set by name, the platform winning", () => {
    expect(linux.environment.remove).toEqual(["C"]);
    expect(linux.environment.set).toEqual({
      KEEP: "base",
      OVER: "linux",
      Path: "/base",
      NEW: "linux",
    });
  });

  it("merges set names case-insensitively on Windows", () => {
    const windows = mergePlatform(base, "win32");
    expect(windows.environment.set).toEqual({ KEEP: "base", OVER: "base", PATH: "C:\\win" });
    expect(windows.environment.remove).toEqual(["A", "B"]);
  });

  it("replaces candidates and enabled, merges policy by key and the environment like the global layer", () => {
    expect(linux.programs.git).toEqual({
      candidates: ["/usr/bin/git"],
      required: true,
      policy: { maxTimeoutMs: 2000, allowStdin: true },
      environment: { remove: ["X"], set: { P: "base", Q: "linux" } },
    });
    expect(linux.programs.hg?.enabled).toBe(true);
  });

  it("replaces projectNode whole", () => {
    expect(linux.projectNode).toEqual({
      enabledRoots: ["/linux"],
      installationRoots: ["/linux"],
      defaultVersion: "22.0.0",
    });
  });

  it("replaces nodeResolution whole in version 1", () => {
    const v1: Manifest = {
      version: 1,
      programs: { node: { candidates: ["node"] } },
      nodeResolution: { enabled: true, installationRoots: ["/a"] },
      platforms: { darwin: { nodeResolution: { enabled: false } } },
    };
    expect(mergePlatform(v1, "darwin").nodeResolution).toEqual({ enabled: false });
    expect(mergePlatform(v1, "linux").nodeResolution).toEqual({
      enabled: true,
      installationRoots: ["/a"],
    });
  });

  it("keeps the base where the platform has no object, and keeps probes", () => {
    const darwin = mergePlatform(base, "darwin");
    expect(darwin.searchPath).toEqual(["/base/bin"]);
    expect(darwin.pathExt).toBe(".EXE");
    expect(darwin.allowInheritedPath).toBe(false);
    expect(darwin.programs.git).toEqual(base.programs.git);
    expect(darwin.projectNode).toEqual(base.projectNode);
    expect(darwin.probes).toEqual(base.probes);
    expect(linux.probes).toEqual(base.probes);
  });

  it("does not change its input", () => {
    const copy = structuredClone(base);
    mergePlatform(base, "linux");
    mergePlatform(base, "win32");
    expect(base).toEqual(copy);
  });
});
