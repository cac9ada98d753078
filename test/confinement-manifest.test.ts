// Manifest v2 `sandbox` (SPEC §20): the schema, the semantic checks and the effective policy of
// each program (precedence, null, defaults, `~/` expansion, writablePaths that must exist).

import { mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog, validateManifest } from "../src/programs/load-catalog.js";
import { DEFAULT_HIDDEN_PATHS } from "../src/confinement/constants.js";
import { tempTreePerTest, thrown } from "./manifest-fixtures.js";

type Json = Record<string, unknown>;

const programs = { sh: { candidates: ["/bin/sh"] }, cat: { candidates: ["/bin/cat"] } };
const v2 = (extra: Json = {}, progs: Json = programs): Json => ({
  version: 2,
  programs: progs,
  ...extra,
});

function problem(value: unknown): string {
  const error = thrown(() => validateManifest(value));
  expect(error.code).toBe("INVALID_MANIFEST");
  return error.message;
}

const temp = tempTreePerTest();

async function catalogOf(manifest: Json, homeDir: string, platform: NodeJS.Platform = "linux") {
  return loadCatalog({ manifest, startupEnv: { PATH: "/usr/bin:/bin" }, platform, homeDir });
}

describe("sandbox in the schema", () => {
  it("accepts the top level, a program, a platform and a platform's program, and null", () => {
    expect(() =>
      validateManifest(
        v2(
          {
            sandbox: {
              filesystem: "workspace-write",
              writablePaths: ["~/.npm"],
              hiddenPaths: [],
              protectedPaths: [".git/hooks"],
              network: "deny",
              bwrapPath: "/usr/bin/bwrap",
            },
            platforms: {
              linux: {
                sandbox: { filesystem: "read-only" },
                programs: { cat: { sandbox: null } },
              },
            },
          },
          { sh: { candidates: ["/bin/sh"], sandbox: { filesystem: "full" } }, cat: programs.cat },
        ),
      ),
    ).not.toThrow();
    expect(() => validateManifest(v2({ sandbox: null }))).not.toThrow();
  });

  it("requires filesystem and names the field", () => {
    expect(problem(v2({ sandbox: { network: "deny" } }))).toContain(
      "/sandbox/filesystem: required field is missing",
    );
  });

  it("rejects an unknown filesystem mode, network mode and field", () => {
    expect(problem(v2({ sandbox: { filesystem: "rw" } }))).toContain(
      '/sandbox/filesystem: expected one of "read-only", "workspace-write", "full", got "rw"',
    );
    expect(problem(v2({ sandbox: { filesystem: "full", network: "lan" } }))).toContain(
      "/sandbox/network",
    );
    expect(problem(v2({ sandbox: { filesystem: "full", mounts: [] } }))).toContain(
      "/sandbox/mounts: unknown field",
    );
  });

  it("bwrapPath is a field of the top-level sandbox only", () => {
    const inProgram = v2(
      {},
      { sh: { candidates: ["/bin/sh"], sandbox: { filesystem: "full", bwrapPath: "/b" } } },
    );
    expect(problem(inProgram)).toContain(
      '/programs/sh/sandbox/bwrapPath: "bwrapPath" is a field of the top-level "sandbox" only',
    );
    const inPlatform = v2({
      platforms: { linux: { sandbox: { filesystem: "full", bwrapPath: "/b" } } },
    });
    expect(problem(inPlatform)).toContain("/platforms/linux/sandbox/bwrapPath");
  });

  it("paths: writable and hidden absolute or ~/, protected relative without ..", () => {
    expect(problem(v2({ sandbox: { filesystem: "full", writablePaths: ["cache"] } }))).toContain(
      '/sandbox/writablePaths/0: expected an absolute POSIX path or a ~/ path, got "cache"',
    );
    expect(problem(v2({ sandbox: { filesystem: "full", hiddenPaths: ["~user/x"] } }))).toContain(
      "/sandbox/hiddenPaths/0",
    );
    for (const bad of ["/etc", "../x", "a/../../b", "~/x", ""]) {
      const manifest = v2({ sandbox: { filesystem: "full", protectedPaths: [bad] } });
      expect(problem(manifest)).toContain("/sandbox/protectedPaths/0");
    }
    expect(() =>
      validateManifest(
        v2({ sandbox: { filesystem: "full", protectedPaths: [".git/hooks", "a..b"] } }),
      ),
    ).not.toThrow();
  });

  it("is a version 2 field: a version 1 manifest may not carry it anywhere", () => {
    const v1 = { version: 1, programs };
    expect(problem({ ...v1, sandbox: { filesystem: "full" } })).toContain(
      "/sandbox: unknown field",
    );
    expect(
      problem({ version: 1, programs: { sh: { candidates: ["/bin/sh"], sandbox: null } } }),
    ).toContain('/programs/sh/sandbox: "sandbox" belongs to version 2 manifests');
    expect(
      problem({
        ...v1,
        platforms: { linux: { programs: { sh: { sandbox: { filesystem: "full" } } } } },
      }),
    ).toContain('/platforms/linux/programs/sh/sandbox: "sandbox" belongs to version 2');
  });
});

describe("effective sandbox policy", () => {
  it("the top level applies to every program with the defaults filled in and ~/ expanded", async () => {
    const home = temp.dir();
    const catalog = await catalogOf(v2({ sandbox: { filesystem: "workspace-write" } }), home);
    const sandbox = catalog.programs.get("sh")!.sandbox!;
    expect(sandbox).toEqual({
      filesystem: "workspace-write",
      writablePaths: [],
      hiddenPaths: DEFAULT_HIDDEN_PATHS.map((entry) => path.join(home, entry.slice(2))),
      protectedPaths: [".git/hooks", ".git/config"],
      network: "allow",
    });
    expect(catalog.programs.get("cat")!.sandbox).toEqual(sandbox);
  });

  it("no sandbox anywhere: every program unconfined", async () => {
    const catalog = await catalogOf(v2(), temp.dir());
    expect(catalog.programs.get("sh")!.sandbox).toBeUndefined();
  });

  it("precedence: platform program > program > platform > top level; null opts out", async () => {
    const home = temp.dir();
    const manifest = v2(
      {
        sandbox: { filesystem: "workspace-write" },
        platforms: {
          linux: {
            sandbox: { filesystem: "read-only", network: "deny" },
            programs: { cat: { sandbox: null } },
          },
          darwin: { programs: { sh: { sandbox: { filesystem: "full" } } } },
        },
      },
      {
        sh: { candidates: ["/bin/sh"], sandbox: { filesystem: "full", hiddenPaths: [] } },
        cat: { candidates: ["/bin/cat"], sandbox: { filesystem: "full" } },
        true: { candidates: ["/bin/true"] },
      },
    );
    const linux = await catalogOf(manifest, home, "linux");
    expect(linux.programs.get("cat")!.sandbox).toBeUndefined();
    expect(linux.programs.get("sh")!.sandbox).toMatchObject({
      filesystem: "full",
      hiddenPaths: [],
    });
    expect(linux.programs.get("true")!.sandbox).toMatchObject({
      filesystem: "read-only",
      network: "deny",
    });
    const freebsd = await catalogOf(manifest, home, "freebsd");
    expect(freebsd.programs.get("true")!.sandbox).toMatchObject({ filesystem: "workspace-write" });
  });

  it("writablePaths must exist at startup: INVALID_MANIFEST with the field and the path", async () => {
    const home = realpathSync(temp.dir());
    mkdirSync(path.join(home, ".npm"));
    const ok = await catalogOf(
      v2({ sandbox: { filesystem: "read-only", writablePaths: ["~/.npm"] } }),
      home,
    );
    expect(ok.programs.get("sh")!.sandbox!.writablePaths).toEqual([path.join(home, ".npm")]);

    const manifest = v2(
      {},
      {
        sh: {
          candidates: ["/bin/sh"],
          sandbox: { filesystem: "read-only", writablePaths: ["~/.npm", "~/.cache/pip"] },
        },
      },
    );
    const error = await catalogOf(manifest, home).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(error?.code).toBe("INVALID_MANIFEST");
    expect(error?.message).toContain("/programs/sh/sandbox/writablePaths/1");
    expect(error?.message).toContain(path.join(home, ".cache/pip"));
  });

  it("the top-level bwrapPath is kept for adapter discovery, ~/ expanded", async () => {
    const home = temp.dir();
    const catalog = await catalogOf(
      v2({ sandbox: { filesystem: "full", bwrapPath: "~/bin/bwrap" } }),
      home,
    );
    expect(catalog.bwrapPath).toBe(path.join(home, "bin/bwrap"));
  });
});
