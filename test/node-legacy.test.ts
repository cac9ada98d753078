// v1 nodeResolution: ranges allowed, highest satisfying, first present per directory, walk to the Root.

import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeSelector, type NodeSelector } from "../src/node/index.js";
import {
  codeOf,
  installPosix,
  makeWorld,
  put,
  putPackage,
  tempDirsPerTest,
  type World,
} from "./node-fixtures.js";

const dirs = tempDirsPerTest();

/** A v1 selector over a world; the Root is world.root. */
async function legacySelector(
  world: World,
  nodeResolution: Record<string, unknown> = { enabled: true, installationRoots: [world.installs] },
): Promise<NodeSelector> {
  const selector = await createNodeSelector({
    manifestVersion: 1,
    nodeResolution,
    roots: [world.root],
    staticNode: world.staticNode,
    staticPrograms: world.staticPrograms,
    homeDir: world.tmp,
  });
  if (selector === undefined) {
    throw new Error("expected a selector");
  }
  return selector;
}

describe("v1 nodeResolution", () => {
  it("a range picks the highest satisfying installation; requirement is the raw declaration", async () => {
    const world = await makeWorld(dirs);
    await installPosix(world.installs, "v20.9.0");
    await put(path.join(world.project, ".nvmrc"), "20\n");
    const selector = await legacySelector(world);
    expect(selector.kind).toBe("node-resolution");
    const plan = await selector.select("node", world.project);
    expect(plan?.selection).toEqual({
      logicalName: "node",
      executable: path.join(world.installs, "v20.9.0", "bin", "node"),
      version: "20.9.0",
      requirement: "20",
      source: ".nvmrc",
    });
  });

  it("engines.node is a selector in v1 (source package.json#engines.node)", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { engines: { node: ">=18 <21" } });
    const plan = await (await legacySelector(world)).select("npm", world.project);
    expect(plan?.selection).toMatchObject({
      version: "20.1.0",
      requirement: ">=18 <21",
      source: "package.json#engines.node",
      adapter: "npm-cli",
    });
    expect(plan?.argsPrefix[0]).toMatch(/v20\.1\.0\/lib\/node_modules\/npm\/bin\/npm-cli\.js$/);
  });

  it("first present wins in a directory: devEngines > volta > .nvmrc > .node-version > engines", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".node-version"), "22");
    await putPackage(world.project, { engines: { node: "18" } });
    const selector = await legacySelector(world);
    expect((await selector.select("node", world.project))?.selection.source).toBe(".node-version");
    await put(path.join(world.project, ".nvmrc"), "20");
    expect((await selector.select("node", world.project))?.selection.source).toBe(".nvmrc");
    await putPackage(world.project, { engines: { node: "18" }, volta: { node: "22.2.0" } });
    expect((await selector.select("node", world.project))?.selection).toMatchObject({
      source: "package.json#volta.node",
      version: "22.2.0",
    });
    await putPackage(world.project, {
      volta: { node: "22.2.0" },
      devEngines: { runtime: { name: "node", version: "^18" } },
    });
    expect((await selector.select("node", world.project))?.selection).toMatchObject({
      source: "package.json#devEngines.runtime",
      version: "18.20.0",
    });
  });

  it("no conflict check in v1: the first present declaration simply wins", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { volta: { node: "22.2.0" } });
    await put(path.join(world.project, ".nvmrc"), "18");
    const plan = await (await legacySelector(world)).select("node", world.project);
    expect(plan?.selection.version).toBe("22.2.0");
  });

  it("the walk goes up to the containing Root and stops there", async () => {
    const world = await makeWorld(dirs);
    const deep = path.join(world.project, "a", "b");
    await mkdir(deep, { recursive: true });
    await put(path.join(world.root, ".nvmrc"), "18");
    const selector = await legacySelector(world);
    expect((await selector.select("node", deep))?.selection.version).toBe("18.20.0");
    await put(path.join(world.tmp, ".nvmrc"), "22");
    const other = path.join(world.tmp, "outside");
    await mkdir(other);
    expect(await selector.select("node", other)).toBeUndefined();
  });

  it("no declaration anywhere up to the Root runs the static program", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.tmp, ".nvmrc"), "22"); // above the Root: never read
    expect(await (await legacySelector(world)).select("node", world.project)).toBeUndefined();
  });

  it("no satisfying installation is NODE_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), ">=30");
    expect(await codeOf((await legacySelector(world)).select("node", world.project))).toBe(
      "NODE_VERSION_UNAVAILABLE",
    );
  });

  it.each(["lts/*", "node", "stable", "default", ""])(
    "alias/empty %j is NODE_VERSION_REQUIREMENT_INVALID",
    async (text) => {
      const world = await makeWorld(dirs);
      await put(path.join(world.project, ".nvmrc"), text);
      expect(await codeOf((await legacySelector(world)).select("node", world.project))).toBe(
        "NODE_VERSION_REQUIREMENT_INVALID",
      );
    },
  );

  it("a symlinked declaration is NODE_DECLARATION_INVALID in v1 too", async () => {
    const world = await makeWorld(dirs);
    const real = await put(path.join(world.tmp, "x", ".nvmrc"), "20");
    await symlink(real, path.join(world.project, ".nvmrc"));
    expect(await codeOf((await legacySelector(world)).select("node", world.project))).toBe(
      "NODE_DECLARATION_INVALID",
    );
  });

  it("default installation roots are the nvm/volta/fnm/asdf directories under home", async () => {
    const world = await makeWorld(dirs);
    await installPosix(path.join(world.tmp, ".nvm", "versions", "node"), "v20.1.0");
    await installPosix(path.join(world.tmp, ".volta", "tools", "image", "node"), "21.0.0");
    await installPosix(path.join(world.tmp, ".fnm", "node-versions"), "v22.0.0", { fnm: true });
    await installPosix(path.join(world.tmp, ".asdf", "installs", "nodejs"), "23.0.0");
    const selector = await legacySelector(world, { enabled: true });
    expect(selector.variantSet().variants.map((item) => item.version)).toEqual([
      "23.0.0",
      "22.0.0",
      "21.0.0",
      "20.1.0",
    ]);
  });

  it("Windows default roots start with %NVM_HOME%", async () => {
    const world = await makeWorld(dirs);
    const nvmHome = path.join(world.tmp, "nvm-home");
    const { installWindows } = await import("./node-fixtures.js");
    await installWindows(nvmHome, "v20.1.0");
    await installWindows(path.join(world.tmp, "AppData", "Roaming", "nvm"), "v21.0.0");
    const selector = await createNodeSelector({
      manifestVersion: 1,
      nodeResolution: { enabled: true },
      roots: [world.root],
      staticNode: world.staticNode,
      staticPrograms: world.staticPrograms,
      homeDir: world.tmp,
      platform: "win32",
      env: { NVM_HOME: nvmHome },
    });
    expect(selector?.variantSet().variants.map((item) => item.executable)).toEqual([
      path.join(world.tmp, "AppData", "Roaming", "nvm", "v21.0.0", "node.exe"),
      path.join(nvmHome, "v20.1.0", "node.exe"),
    ]);
  });
});
