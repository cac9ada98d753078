// v2 projectNode: selectors, conflicts, engines.node, invalid pins, declaration files, boundaries.

import { spawnSync } from "node:child_process";
import { mkdir, symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  codeOf,
  makeWorld,
  projectSelector,
  put,
  putPackage,
  tempDirsPerTest,
} from "./node-fixtures.js";

const dirs = tempDirsPerTest();

describe("exact selectors", () => {
  it.each([
    [
      "devEngines.runtime object",
      { devEngines: { runtime: { name: "node", version: "22.2.0" } } },
      "package.json#devEngines.runtime",
    ],
    [
      "devEngines.runtime array",
      {
        devEngines: {
          runtime: [
            { name: "bun", version: "1.0.0" },
            { name: "node", version: "v22.2.0" },
          ],
        },
      },
      "package.json#devEngines.runtime",
    ],
    ["volta.node", { volta: { node: "22.2.0" } }, "package.json#volta.node"],
  ])("%s selects the pinned installation", async (_name, pkg, source) => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, pkg);
    const selector = await projectSelector(world);
    const plan = await selector.select("node", world.project);
    expect(plan?.selection).toMatchObject({ logicalName: "node", version: "22.2.0", source });
    expect(plan?.command).toBe(path.join(world.installs, "v22.2.0", "bin", "node"));
    expect(plan?.argsPrefix).toEqual([]);
    expect(plan?.pathPrepend).toBe(path.join(world.installs, "v22.2.0", "bin"));
    expect(plan?.selection.adapter).toBeUndefined();
  });

  it.each([
    [".nvmrc", "v18.20.0\n"],
    [".node-version", "18.20.0"],
  ])(
    "%s selects the pinned installation; requirement is the exact version without v",
    async (file, text) => {
      const world = await makeWorld(dirs);
      await put(path.join(world.project, file), text);
      const selector = await projectSelector(world);
      const plan = await selector.select("node", world.project);
      expect(plan?.selection).toEqual({
        logicalName: "node",
        executable: path.join(world.installs, "v18.20.0", "bin", "node"),
        version: "18.20.0",
        requirement: "18.20.0",
        source: file,
      });
    },
  );

  it(".nvmrc comments and blank lines are ignored", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "# pinned for CI\n\n22.2.0 # current\n");
    const plan = await (await projectSelector(world)).select("node", world.project);
    expect(plan?.selection.version).toBe("22.2.0");
  });

  it("the nearest directory with a selector wins over ancestors", async () => {
    const world = await makeWorld(dirs);
    const nested = path.join(world.project, "packages", "app", "src");
    await mkdir(nested, { recursive: true });
    await put(path.join(world.project, ".nvmrc"), "18.20.0");
    await putPackage(path.join(world.project, "packages", "app"), { volta: { node: "22.2.0" } });
    const selector = await projectSelector(world);
    expect((await selector.select("node", nested))?.selection).toMatchObject({
      version: "22.2.0",
      source: "package.json#volta.node",
    });
    const sibling = path.join(world.project, "packages", "other");
    await mkdir(sibling, { recursive: true });
    expect((await selector.select("node", sibling))?.selection).toMatchObject({
      version: "18.20.0",
      source: ".nvmrc",
    });
  });

  it("declarations are re-read on every request", async () => {
    const world = await makeWorld(dirs);
    const selector = await projectSelector(world);
    await put(path.join(world.project, ".nvmrc"), "18.20.0");
    expect((await selector.select("node", world.project))?.selection.version).toBe("18.20.0");
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    expect((await selector.select("node", world.project))?.selection.version).toBe("22.2.0");
  });

  it("agreeing selectors in one directory are accepted (first in order is the source)", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { volta: { node: "22.2.0" } });
    await put(path.join(world.project, ".nvmrc"), "v22.2.0");
    await put(path.join(world.project, ".node-version"), "22.2.0");
    const plan = await (await projectSelector(world)).select("node", world.project);
    expect(plan?.selection).toMatchObject({ version: "22.2.0", source: "package.json#volta.node" });
  });

  it("a pinned version that is not installed is PROJECT_NODE_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "21.0.0");
    const selector = await projectSelector(world);
    await expect(selector.select("node", world.project)).rejects.toThrow(
      /\.nvmrc.*21\.0\.0.*22\.2\.0, 20\.1\.0, 18\.20\.0/s,
    );
    expect(await codeOf(selector.select("node", world.project))).toBe(
      "PROJECT_NODE_VERSION_UNAVAILABLE",
    );
  });
});

describe("conflicts", () => {
  it("disagreeing selectors in the nearest directory are PROJECT_NODE_DECLARATION_CONFLICT", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { volta: { node: "22.2.0" } });
    await put(path.join(world.project, ".nvmrc"), "18.20.0");
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe(
      "PROJECT_NODE_DECLARATION_CONFLICT",
    );
    await expect(selector.select("node", world.project)).rejects.toThrow(
      /package\.json#volta\.node = "22\.2\.0", \.nvmrc = "18\.20\.0"/,
    );
  });

  it("devEngines and .node-version disagreeing conflict too", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, {
      devEngines: { runtime: { name: "node", version: "20.1.0" } },
    });
    await put(path.join(world.project, ".node-version"), "22.2.0");
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("npm", world.project))).toBe(
      "PROJECT_NODE_DECLARATION_CONFLICT",
    );
  });

  it("a selector in an ancestor does not conflict with a nearer one", async () => {
    const world = await makeWorld(dirs);
    const app = path.join(world.project, "app");
    await put(path.join(world.project, ".nvmrc"), "18.20.0");
    await put(path.join(app, ".nvmrc"), "22.2.0");
    const plan = await (await projectSelector(world)).select("node", app);
    expect(plan?.selection.version).toBe("22.2.0");
  });
});

describe("engines.node", () => {
  it("a satisfied engines.node on the way lets the pin run", async () => {
    const world = await makeWorld(dirs);
    const app = path.join(world.project, "app");
    await putPackage(world.project, { engines: { node: ">=20" } });
    await putPackage(app, { engines: { node: "^22.0.0" } });
    await put(path.join(app, ".nvmrc"), "22.2.0");
    const plan = await (await projectSelector(world)).select("node", app);
    expect(plan?.selection).toMatchObject({ version: "22.2.0", source: ".nvmrc" });
  });

  it("an ancestor engines.node the pin violates is PROJECT_NODE_RANGE_UNSATISFIED", async () => {
    const world = await makeWorld(dirs);
    const app = path.join(world.project, "app");
    await putPackage(world.project, { engines: { node: ">=20" } });
    await put(path.join(app, ".nvmrc"), "18.20.0");
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", app))).toBe("PROJECT_NODE_RANGE_UNSATISFIED");
    await expect(selector.select("node", app)).rejects.toThrow(
      new RegExp(
        `18\\.20\\.0.*>=20.*${path.join(world.project, "package.json").replace(/[.]/g, "\\.")}`,
      ),
    );
  });

  it("engines.node alone never selects: the default version must satisfy it", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { engines: { node: ">=22" } });
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe(
      "PROJECT_NODE_RANGE_UNSATISFIED",
    );
    await putPackage(world.project, { engines: { node: "^20.0.0" } });
    const plan = await selector.select("node", world.project);
    expect(plan?.selection).toMatchObject({
      version: "20.1.0",
      source: "manifest#projectNode.defaultVersion",
      requirement: "20.1.0",
    });
  });

  it("an invalid engines.node range is NODE_VERSION_REQUIREMENT_INVALID", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { engines: { node: "lts/*" } });
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe(
      "NODE_VERSION_REQUIREMENT_INVALID",
    );
  });
});

describe("invalid pins and aliases", () => {
  it.each([
    "lts/*",
    "lts/iron",
    "node",
    "stable",
    "default",
    "latest",
    "20",
    "^20.1.0",
    ">=20",
    "20.x",
    "",
    "v20.1",
  ])(".nvmrc %j is NODE_VERSION_REQUIREMENT_INVALID", async (text) => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), text);
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe(
      "NODE_VERSION_REQUIREMENT_INVALID",
    );
    await expect(selector.select("node", world.project)).rejects.toThrow(
      /\.nvmrc in .*expected an exact version/,
    );
  });

  it.each([
    [{ volta: { node: "lts" } }, "NODE_VERSION_REQUIREMENT_INVALID"],
    [
      { devEngines: { runtime: { name: "node", version: ">=20" } } },
      "NODE_VERSION_REQUIREMENT_INVALID",
    ],
    [{ volta: { node: 20 } }, "NODE_DECLARATION_INVALID"],
    [{ volta: "20.1.0" }, "NODE_DECLARATION_INVALID"],
    [{ devEngines: { runtime: "node" } }, "NODE_DECLARATION_INVALID"],
    [{ engines: { node: 20 } }, "NODE_DECLARATION_INVALID"],
    [["not", "an", "object"], "NODE_DECLARATION_INVALID"],
  ])("package.json %j is %s", async (pkg, code) => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, pkg);
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe(code);
  });

  it("malformed package.json JSON is NODE_DECLARATION_INVALID naming the file", async () => {
    const world = await makeWorld(dirs);
    const file = await put(path.join(world.project, "package.json"), "{ nope");
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe("NODE_DECLARATION_INVALID");
    await expect(selector.select("node", world.project)).rejects.toThrow(file);
  });

  it("a devEngines.runtime node entry without a version does not select", async () => {
    const world = await makeWorld(dirs);
    await putPackage(world.project, { devEngines: { runtime: { name: "node" } } });
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    const plan = await (await projectSelector(world)).select("node", world.project);
    expect(plan?.selection).toMatchObject({ version: "22.2.0", source: ".nvmrc" });
  });
});

describe("declaration files", () => {
  it.each([".nvmrc", ".node-version", "package.json"])(
    "a symlinked %s is NODE_DECLARATION_INVALID",
    async (name) => {
      const world = await makeWorld(dirs);
      const real = await put(
        path.join(world.tmp, "elsewhere", name),
        name === "package.json" ? "{}" : "22.2.0",
      );
      await symlink(real, path.join(world.project, name));
      const selector = await projectSelector(world);
      expect(await codeOf(selector.select("node", world.project))).toBe("NODE_DECLARATION_INVALID");
      await expect(selector.select("node", world.project)).rejects.toThrow(
        new RegExp(`${name.replace(".", "\\.")}: expected a regular file, got a symbolic link`),
      );
    },
  );

  it("a directory named .nvmrc is NODE_DECLARATION_INVALID", async () => {
    const world = await makeWorld(dirs);
    await mkdir(path.join(world.project, ".nvmrc"));
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe("NODE_DECLARATION_INVALID");
  });

  it("an .nvmrc over 4096 bytes is refused, 4096 bytes is accepted", async () => {
    const world = await makeWorld(dirs);
    const selector = await projectSelector(world);
    await put(path.join(world.project, ".nvmrc"), "22.2.0\n" + " ".repeat(4096 - 7));
    expect((await selector.select("node", world.project))?.selection.version).toBe("22.2.0");
    await put(path.join(world.project, ".nvmrc"), "22.2.0\n" + " ".repeat(4096));
    expect(await codeOf(selector.select("node", world.project))).toBe("NODE_DECLARATION_INVALID");
    await expect(selector.select("node", world.project)).rejects.toThrow(/at most 4096 bytes/);
  });

  it("a package.json over 1 MiB is refused", async () => {
    const world = await makeWorld(dirs);
    await put(
      path.join(world.project, "package.json"),
      JSON.stringify({ volta: { node: "22.2.0" }, pad: "x".repeat(1024 * 1024) }),
    );
    const selector = await projectSelector(world);
    expect(await codeOf(selector.select("node", world.project))).toBe("NODE_DECLARATION_INVALID");
    await expect(selector.select("node", world.project)).rejects.toThrow(/at most 1048576 bytes/);
  });
});

describe("boundaries and fallbacks", () => {
  it("cwd outside every enabled root runs the static program (undefined)", async () => {
    const world = await makeWorld(dirs);
    const other = path.join(world.root, "other");
    await put(path.join(other, ".nvmrc"), "22.2.0");
    const selector = await projectSelector(world);
    expect(await selector.select("node", other)).toBeUndefined();
    expect(await selector.select("node", world.root)).toBeUndefined();
  });

  it("programs other than node/npm/npx are never redirected", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    const selector = await projectSelector(world);
    for (const program of ["pnpm", "yarn", "bun", "git"]) {
      expect(await selector.select(program, world.project)).toBeUndefined();
    }
  });

  it("the deepest enabled root is the boundary: declarations above it are not read", async () => {
    const world = await makeWorld(dirs);
    const inner = path.join(world.project, "inner");
    const cwd = path.join(inner, "src");
    await mkdir(cwd, { recursive: true });
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    await putPackage(world.project, { engines: { node: ">=99" } });
    const selector = await projectSelector(world, { enabledRoots: [world.project, inner] });
    expect((await selector.select("node", cwd))?.selection).toMatchObject({
      version: "20.1.0",
      source: "manifest#projectNode.defaultVersion",
    });
    // The outer enabled root still sees its own declarations.
    expect(await codeOf(selector.select("node", world.project))).toBe(
      "PROJECT_NODE_RANGE_UNSATISFIED",
    );
  });

  it("declarations above the enabled root (but inside the Root) are not read", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.root, ".nvmrc"), "22.2.0");
    await put(path.join(world.root, "package.json"), "{ broken");
    const plan = await (await projectSelector(world)).select("node", world.project);
    expect(plan?.selection.source).toBe("manifest#projectNode.defaultVersion");
  });

  it("no selector runs defaultVersion, written with a v, reported without it", async () => {
    const world = await makeWorld(dirs);
    const selector = await projectSelector(world, { defaultVersion: "v18.20.0" });
    const plan = await selector.select("npx", world.project);
    expect(plan?.selection).toEqual({
      logicalName: "npx",
      executable: path.join(world.installs, "v18.20.0", "bin", "node"),
      version: "18.20.0",
      requirement: "18.20.0",
      source: "manifest#projectNode.defaultVersion",
      adapter: "npm-cli",
    });
  });
});

describe("the plan runs", () => {
  it("spawning command + argsPrefix + args runs the selected node (node and npm)", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    const selector = await projectSelector(world);
    const nodePlan = (await selector.select("node", world.project))!;
    const ran = spawnSync(nodePlan.command, [...nodePlan.argsPrefix, "--version"], {
      cwd: world.project,
      encoding: "utf8",
      env: { PATH: `${nodePlan.pathPrepend}${path.delimiter}${process.env.PATH ?? ""}` },
    });
    expect(ran.status).toBe(0);
    expect(ran.stdout.trim()).toBe("node 22.2.0 --version");

    const npmPlan = (await selector.select("npm", world.project))!;
    const npm = spawnSync(npmPlan.command, [...npmPlan.argsPrefix, "install"], {
      cwd: world.project,
      encoding: "utf8",
    });
    expect(npm.stdout.trim()).toBe(
      `node 22.2.0 ${path.join(world.installs, "v22.2.0", "lib", "node_modules", "npm", "bin", "npm-cli.js")} install`,
    );
  });
});

describe("containment", () => {
  it("a sibling whose name starts with .. or the enabled root's name is outside it", async () => {
    const world = await makeWorld(dirs);
    await put(path.join(world.project, ".nvmrc"), "22.2.0");
    const selector = await projectSelector(world);
    for (const name of ["project-other", "..project"]) {
      const sibling = path.join(world.root, name);
      await mkdir(sibling, { recursive: true });
      expect(await selector.select("node", sibling)).toBeUndefined();
    }
    const dotted = path.join(world.project, "..hidden");
    await mkdir(dotted);
    expect((await selector.select("node", dotted))?.selection.version).toBe("22.2.0");
  });
});
