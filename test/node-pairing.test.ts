// npm/npx pairing (POSIX, fnm, Windows layouts) and NODE_VARIANT_CHANGED before launch.

import { spawnSync } from "node:child_process";
import { appendFile, chmod, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeSelector } from "../src/node/index.js";
import {
  errorOf,
  installPosix,
  installWindows,
  makeTempDir,
  makeWorld,
  nodeScript,
  projectSelector,
  put,
  registeredProgram,
  tempDirsPerTest,
} from "./node-fixtures.js";

const dirs = tempDirsPerTest();

describe("npm and npx pairing on POSIX layouts", () => {
  it("npm and npx run as <selected node> <paired cli>", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    const selector = await projectSelector(world);
    const cliDir = path.join(world.installs, "v22.2.0", "lib", "node_modules", "npm", "bin");
    for (const program of ["npm", "npx"] as const) {
      const plan = (await selector.select(program, world.project))!;
      expect(plan.command).toBe(path.join(world.installs, "v22.2.0", "bin", "node"));
      expect(plan.argsPrefix).toEqual([path.join(cliDir, `${program}-cli.js`)]);
      expect(plan.pathPrepend).toBe(path.join(world.installs, "v22.2.0", "bin"));
      expect(plan.selection).toMatchObject({
        logicalName: program,
        version: "22.2.0",
        source: ".nvmrc",
        adapter: "npm-cli",
      });
      const ran = spawnSync(plan.command, [...plan.argsPrefix, "--version"], { encoding: "utf8" });
      expect(ran.stdout.trim()).toBe(`node 22.2.0 ${plan.argsPrefix[0]} --version`);
    }
  });

  it("fnm's installation/ layout pairs installation/lib/node_modules/npm", async () => {
    const world = await makeWorld(dirs);
    const fnmRoot = path.join(world.tmp, "fnm", "node-versions");
    const fnm = await installPosix(fnmRoot, "v21.5.0", { fnm: true });
    await put(path.join(world.project, ".node-version"), "21.5.0");
    const selector = await projectSelector(world, { installationRoots: [world.installs, fnmRoot] });
    const plan = (await selector.select("npx", world.project))!;
    expect(plan.command).toBe(fnm.node);
    expect(plan.argsPrefix).toEqual([fnm.npxCli]);
    expect(plan.pathPrepend).toBe(path.join(fnm.prefix, "bin"));
  });

  it("an installation without npm fails npm per request but not startup, node and npx", async () => {
    const world = await makeWorld(dirs);
    const bare = await installPosix(world.installs, "v16.0.0", { npm: false });
    await put(path.join(world.project, ".nvmrc"), "16.0.0");
    const selector = await projectSelector(world);
    expect((await selector.select("node", world.project))?.selection.version).toBe("16.0.0");
    expect((await selector.select("npx", world.project))?.argsPrefix).toEqual([bare.npxCli]);
    const error = await errorOf(selector.select("npm", world.project));
    expect(error.code).toBe("PROJECT_NPM_UNAVAILABLE");
    expect(error.message).toContain(bare.npmCli);
    const variant = selector.variantSet().variants.find((item) => item.version === "16.0.0");
    expect(variant).toEqual({ version: "16.0.0", executable: bare.node, npxCli: bare.npxCli });
  });

  it("an installation without npx is PROJECT_NPX_UNAVAILABLE for npx only", async () => {
    const world = await makeWorld(dirs);
    await installPosix(world.installs, "v16.0.0", { npx: false });
    await put(path.join(world.project, ".nvmrc"), "16.0.0");
    const selector = await projectSelector(world);
    expect((await selector.select("npm", world.project))?.selection.adapter).toBe("npm-cli");
    expect((await errorOf(selector.select("npx", world.project))).code).toBe(
      "PROJECT_NPX_UNAVAILABLE",
    );
  });
});

describe("Windows layouts (platform win32)", () => {
  it("node.exe with node_modules/npm/bin/{npm,npx}-cli.js", async () => {
    const tmp = await makeTempDir();
    dirs.push(tmp);
    const nvmHome = path.join(tmp, "AppData", "Roaming", "nvm");
    const v20 = await installWindows(nvmHome, "v20.1.0");
    const v22 = await installWindows(nvmHome, "v22.2.0", { npx: false });
    const project = path.join(tmp, "work", "project");
    await put(path.join(project, ".nvmrc"), "22.2.0");
    const staticNode = registeredProgram("node", v20.node);
    const selector = (await createNodeSelector({
      manifestVersion: 2,
      projectNode: {
        enabledRoots: ["~/work/project"],
        installationRoots: ["~/AppData/Roaming/nvm"],
        defaultVersion: "20.1.0",
      },
      roots: [path.join(tmp, "work")],
      staticNode,
      staticPrograms: new Map([["node", staticNode]]),
      homeDir: tmp,
      platform: "win32",
    }))!;
    expect(selector.variantSet()).toEqual({
      kind: "node-project",
      variants: [
        { version: "22.2.0", executable: v22.node, npmCli: v22.npmCli },
        { version: "20.1.0", executable: v20.node, npmCli: v20.npmCli, npxCli: v20.npxCli },
      ],
      fallbackExecutable: v20.node,
    });
    const npm = (await selector.select("npm", project))!;
    expect(npm.command).toBe(v22.node);
    expect(npm.argsPrefix).toEqual([v22.npmCli]);
    expect(npm.pathPrepend).toBe(v22.dir);
    expect((await errorOf(selector.select("npx", project))).code).toBe("PROJECT_NPX_UNAVAILABLE");
    await rm(path.join(project, ".nvmrc"));
    const npx = (await selector.select("npx", project))!;
    expect(npx.argsPrefix).toEqual([v20.npxCli]);
  });

  it("a POSIX bin/node layout is not an installation on win32, and node.exe not on POSIX", async () => {
    const tmp = await makeTempDir();
    dirs.push(tmp);
    const root = path.join(tmp, "versions");
    const posix = await installPosix(root, "v20.1.0");
    await installWindows(root, "v22.2.0");
    const staticNode = registeredProgram("node", posix.node);
    const options = {
      manifestVersion: 2 as const,
      projectNode: { enabledRoots: [tmp], installationRoots: [root], defaultVersion: "20.1.0" },
      roots: [tmp],
      staticNode,
      staticPrograms: new Map([["node", staticNode]]),
    };
    const onPosix = (await createNodeSelector({ ...options, platform: "linux" }))!;
    expect(onPosix.variantSet().variants.map((item) => item.version)).toEqual(["20.1.0"]);
    const onWindows = createNodeSelector({
      ...options,
      projectNode: { ...options.projectNode, defaultVersion: "22.2.0" },
      platform: "win32",
    });
    expect((await onWindows)!.variantSet().variants.map((item) => item.version)).toEqual([
      "22.2.0",
    ]);
  });
});

describe("NODE_VARIANT_CHANGED", () => {
  it("an installation's node replaced after startup is refused before launch", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    const selector = await projectSelector(world);
    expect((await selector.select("node", world.project))?.selection.version).toBe("22.2.0");
    const node = path.join(world.installs, "v22.2.0", "bin", "node");
    const replacement = `${node}.new`;
    await writeFile(replacement, nodeScript("22.2.0-evil"));
    await chmod(replacement, 0o755);
    await rename(replacement, node);
    const error = await errorOf(selector.select("node", world.project));
    expect(error.code).toBe("NODE_VARIANT_CHANGED");
    expect(error.message).toContain(node);
    // Other installations are unaffected.
    await put(path.join(world.project, ".nvmrc"), "18.20.0");
    expect((await selector.select("node", world.project))?.selection.version).toBe("18.20.0");
  });

  it("a node rewritten in place (size changes) is refused", async () => {
    const world = await makeWorld(dirs);
    const selector = await projectSelector(world);
    await appendFile(path.join(world.installs, "v20.1.0", "bin", "node"), "# patched\n");
    expect((await errorOf(selector.select("node", world.project))).code).toBe(
      "NODE_VARIANT_CHANGED",
    );
  });

  it("a removed or replaced paired CLI is NODE_VARIANT_CHANGED for npm, node still runs", async () => {
    const world = await makeWorld(dirs);
    const selector = await projectSelector(world);
    const cliDir = path.join(world.installs, "v20.1.0", "lib", "node_modules", "npm", "bin");
    await rm(path.join(cliDir, "npm-cli.js"));
    expect((await errorOf(selector.select("npm", world.project))).code).toBe(
      "NODE_VARIANT_CHANGED",
    );
    await writeFile(path.join(cliDir, "npx-cli.js.new"), "// other npx\n");
    await rename(path.join(cliDir, "npx-cli.js.new"), path.join(cliDir, "npx-cli.js"));
    expect((await errorOf(selector.select("npx", world.project))).code).toBe(
      "NODE_VARIANT_CHANGED",
    );
    expect((await selector.select("node", world.project))?.selection.version).toBe("20.1.0");
  });
});
