// migrate-manifest: v1 nodeResolution → v2 projectNode, and each refusal.

import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeSelector, migrateManifestObject } from "../src/node/index.js";
import { errorOf, installPosix, makeTempDir, makeWorld, tempDirsPerTest } from "./node-fixtures.js";

const dirs = tempDirsPerTest();

/** A v1 manifest as an earlier release would have written it. */
function v1Manifest(nodeResolution: Record<string, unknown>): Record<string, unknown> {
  return {
    version: 1,
    searchPath: ["/usr/bin"],
    nodeResolution,
    programs: { node: { candidates: ["node"], required: true }, npm: { candidates: ["npm"] } },
    platforms: { win32: { pathExt: ".EXE;.CMD" } },
  };
}

describe("migrateManifestObject", () => {
  it("converts nodeResolution to projectNode with the Roots and the static node's version", async () => {
    const world = await makeWorld(dirs);
    const input = v1Manifest({ enabled: true, installationRoots: [world.installs] });
    const before = structuredClone(input);
    const migrated = await migrateManifestObject(input, {
      roots: [world.root],
      staticNodeRealPath: path.join(world.installs, "v22.2.0", "bin", "node"),
      homeDir: world.tmp,
    });
    expect(migrated).toEqual({
      version: 2,
      searchPath: ["/usr/bin"],
      projectNode: {
        enabledRoots: [world.root],
        installationRoots: [world.installs],
        defaultVersion: "22.2.0",
      },
      programs: input.programs,
      platforms: input.platforms,
    });
    expect(Object.keys(migrated)).toEqual([
      "version",
      "searchPath",
      "projectNode",
      "programs",
      "platforms",
    ]);
    expect(input).toEqual(before);
    // The result is usable as it stands.
    const selector = await createNodeSelector({
      manifestVersion: 2,
      projectNode: migrated.projectNode as Record<string, unknown>,
      roots: [world.root],
      staticNode: world.staticNode,
      staticPrograms: world.staticPrograms,
    });
    expect((await selector!.select("node", world.project))?.selection.version).toBe("22.2.0");
  });

  it("a static node reached through a symlink still matches its installation", async () => {
    const world = await makeWorld(dirs);
    const shim = path.join(world.tmp, "bin", "node");
    await mkdir(path.dirname(shim));
    await symlink(path.join(world.installs, "v18.20.0", "bin", "node"), shim);
    const migrated = await migrateManifestObject(
      v1Manifest({ enabled: true, installationRoots: [world.installs] }),
      { roots: [world.root], staticNodeRealPath: shim, homeDir: world.tmp },
    );
    expect((migrated.projectNode as Record<string, unknown>).defaultVersion).toBe("18.20.0");
  });

  it("default installation roots become the ~/ roots that exist", async () => {
    const home = await makeTempDir();
    dirs.push(home);
    const nvm = path.join(home, ".nvm", "versions", "node");
    const v20 = await installPosix(nvm, "v20.1.0");
    await installPosix(path.join(home, ".asdf", "installs", "nodejs"), "21.0.0");
    const migrated = await migrateManifestObject(v1Manifest({ enabled: true }), {
      roots: [home],
      staticNodeRealPath: v20.node,
      homeDir: home,
      platform: "linux",
    });
    expect(migrated.projectNode).toEqual({
      enabledRoots: [home],
      installationRoots: ["~/.nvm/versions/node", "~/.asdf/installs/nodejs"],
      defaultVersion: "20.1.0",
    });
  });

  it("a disabled nodeResolution is dropped: v2 without projectNode", async () => {
    const migrated = await migrateManifestObject(v1Manifest({ enabled: false }), { roots: ["/"] });
    expect(migrated.version).toBe(2);
    expect("projectNode" in migrated).toBe(false);
    expect("nodeResolution" in migrated).toBe(false);
  });

  it("a v2 manifest, or a v1 without nodeResolution, is MIGRATION_NOT_APPLICABLE", async () => {
    const v2 = await errorOf(migrateManifestObject({ version: 2, programs: {} }, { roots: ["/"] }));
    expect(v2.code).toBe("MIGRATION_NOT_APPLICABLE");
    expect(v2.message).toContain("got version 2");
    const plain = await errorOf(
      migrateManifestObject({ version: 1, programs: {} }, { roots: ["/"] }),
    );
    expect(plain.code).toBe("MIGRATION_NOT_APPLICABLE");
  });

  it("a platform override of nodeResolution is MIGRATION_PLATFORM_OVERRIDE_UNSUPPORTED", async () => {
    const manifest = v1Manifest({ enabled: true });
    manifest.platforms = { darwin: { nodeResolution: { enabled: false } } };
    const error = await errorOf(migrateManifestObject(manifest, { roots: ["/"] }));
    expect(error.code).toBe("MIGRATION_PLATFORM_OVERRIDE_UNSUPPORTED");
    expect(error.message).toContain("platforms.darwin.nodeResolution");
  });

  it("a static node that is no installation is MIGRATION_DEFAULT_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const manifest = v1Manifest({ enabled: true, installationRoots: [world.installs] });
    const elsewhere = await errorOf(
      migrateManifestObject(manifest, { roots: [world.root], staticNodeRealPath: "/usr/bin/node" }),
    );
    expect(elsewhere.code).toBe("MIGRATION_DEFAULT_VERSION_UNAVAILABLE");
    expect(elsewhere.message).toContain("/usr/bin/node");
    const none = await errorOf(migrateManifestObject(manifest, { roots: [world.root] }));
    expect(none.code).toBe("MIGRATION_DEFAULT_VERSION_UNAVAILABLE");
    expect(none.message).toContain("no registered node program");
  });

  it("no Roots is ROOT_REQUIRED (they become enabledRoots)", async () => {
    const world = await makeWorld(dirs);
    const manifest = v1Manifest({ enabled: true, installationRoots: [world.installs] });
    expect((await errorOf(migrateManifestObject(manifest, { roots: [] }))).code).toBe(
      "ROOT_REQUIRED",
    );
  });
});
