// whenNoSelector "active-manager": the link is re-read per request; broken/non-link/unmatched fail.

import { mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  errorOf,
  installPosix,
  makeWorld,
  projectSelector,
  put,
  putPackage,
  tempDirsPerTest,
  type World,
} from "./node-fixtures.js";

const dirs = tempDirsPerTest();

/** A selector whose fallback is the link `<tmp>/nvm/current`. */
async function activeSelector(world: World, link = path.join(world.tmp, "nvm", "current")) {
  return projectSelector(world, { whenNoSelector: "active-manager", activeManagerLinks: [link] });
}

/** Points a link at a target, replacing it atomically like `nvm use` would. */
async function pointLink(link: string, target: string): Promise<void> {
  const staged = `${link}.staged`;
  await rm(staged, { force: true });
  await symlink(target, staged);
  await rename(staged, link);
}

describe("active-manager link", () => {
  it("switching the link between two requests takes effect without a restart", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "nvm", "current");
    await pointLink(link, path.join(world.installs, "v18.20.0"));
    const selector = await activeSelector(world, link);
    const first = await selector.select("node", world.project);
    expect(first?.selection).toEqual({
      logicalName: "node",
      executable: path.join(world.installs, "v18.20.0", "bin", "node"),
      version: "18.20.0",
      requirement: "18.20.0",
      source: "active-manager",
    });
    await pointLink(link, path.join(world.installs, "v22.2.0"));
    const second = await selector.select("node", world.project);
    expect(second?.selection).toMatchObject({
      version: "22.2.0",
      requirement: "22.2.0",
      source: "active-manager",
    });
    expect(second?.pathPrepend).toBe(path.join(world.installs, "v22.2.0", "bin"));
  });

  it("a link to the bin dir, the executable or an fnm installation prefix also matches", async () => {
    const world = await makeWorld(dirs);
    const fnmRoot = path.join(world.tmp, "fnm", "node-versions");
    const fnm = await installPosix(fnmRoot, "v21.5.0", { fnm: true });
    const link = path.join(world.tmp, "current");
    const selector = await projectSelector(world, {
      installationRoots: [world.installs, fnmRoot],
      whenNoSelector: "active-manager",
      activeManagerLinks: [link],
    });
    await pointLink(link, path.join(world.installs, "v22.2.0", "bin"));
    expect((await selector.select("node", world.project))?.selection.version).toBe("22.2.0");
    await pointLink(link, path.join(world.installs, "v18.20.0", "bin", "node"));
    expect((await selector.select("node", world.project))?.selection.version).toBe("18.20.0");
    await pointLink(link, fnm.prefix);
    expect((await selector.select("node", world.project))?.selection.version).toBe("21.5.0");
  });

  it("a link through a chain of links resolves to its final target", async () => {
    const world = await makeWorld(dirs);
    const hop = path.join(world.tmp, "hop");
    const link = path.join(world.tmp, "current");
    await symlink(path.join(world.installs, "v22.2.0"), hop);
    await symlink(hop, link);
    const selector = await activeSelector(world, link);
    expect((await selector.select("node", world.project))?.selection.version).toBe("22.2.0");
  });

  it("a project pin still wins over the active manager", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "current");
    await pointLink(link, path.join(world.installs, "v22.2.0"));
    await put(path.join(world.project, ".nvmrc"), "18.20.0");
    const selector = await activeSelector(world, link);
    expect((await selector.select("node", world.project))?.selection.source).toBe(".nvmrc");
  });

  it("engines.node still applies to the active version", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "current");
    await pointLink(link, path.join(world.installs, "v18.20.0"));
    await putPackage(world.project, { engines: { node: ">=20" } });
    const selector = await activeSelector(world, link);
    expect((await errorOf(selector.select("node", world.project))).code).toBe(
      "PROJECT_NODE_RANGE_UNSATISFIED",
    );
  });

  it("a missing link is PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE (no fallback to defaultVersion)", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "current");
    const selector = await activeSelector(world, link);
    const error = await errorOf(selector.select("node", world.project));
    expect(error.code).toBe("PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE");
    expect(error.message).toContain(link);
    expect(error.message).toContain("does not exist");
  });

  it("a broken link is PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "current");
    await symlink(path.join(world.installs, "v99.0.0"), link);
    const selector = await activeSelector(world, link);
    const error = await errorOf(selector.select("node", world.project));
    expect(error.code).toBe("PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE");
    expect(error.message).toMatch(/is broken: its target .*v99\.0\.0 does not exist/);
  });

  it("a real directory instead of a link is PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "current");
    await mkdir(link);
    const selector = await activeSelector(world, link);
    const error = await errorOf(selector.select("node", world.project));
    expect(error.code).toBe("PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE");
    expect(error.message).toContain("is not a symbolic link");
    await rm(link, { recursive: true });
    await writeFile(link, "v20.1.0");
    expect((await errorOf(selector.select("node", world.project))).code).toBe(
      "PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE",
    );
  });

  it("a link to something that is not a startup installation is PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const link = path.join(world.tmp, "current");
    const selector = await activeSelector(world, link);
    // Installed after startup: not part of the immutable set.
    const late = await installPosix(world.installs, "v23.0.0");
    await pointLink(link, late.dir);
    const error = await errorOf(selector.select("node", world.project));
    expect(error.code).toBe("PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE");
    expect(error.message).toMatch(/none of the Node installations found at startup/);
    await pointLink(link, world.project);
    expect((await errorOf(selector.select("node", world.project))).code).toBe(
      "PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE",
    );
  });
});
