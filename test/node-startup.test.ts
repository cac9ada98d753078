// Startup of Project Node resolution: the installation set, variantSet and every startup error.

import { mkdir, symlink, writeFile, chmod } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createNodeSelector } from "../src/node/index.js";
import {
  errorOf,
  installPosix,
  makeWorld,
  projectOptions,
  put,
  registeredProgram,
  tempDirsPerTest,
} from "./node-fixtures.js";

const dirs = tempDirsPerTest();

describe("installation set", () => {
  it("reports every installation newest first, with the static node as fallback", async () => {
    const world = await makeWorld(dirs);
    const selector = (await createNodeSelector(projectOptions(world)))!;
    const cli = (version: string, name: string) =>
      path.join(world.installs, version, "lib", "node_modules", "npm", "bin", `${name}-cli.js`);
    expect(selector.variantSet()).toEqual({
      kind: "node-project",
      variants: ["v22.2.0", "v20.1.0", "v18.20.0"].map((dir) => ({
        version: dir.slice(1),
        executable: path.join(world.installs, dir, "bin", "node"),
        npmCli: cli(dir, "npm"),
        npxCli: cli(dir, "npx"),
      })),
      fallbackExecutable: world.staticNode.executable,
    });
    expect(selector.kind).toBe("project-node");
    expect(selector.enabledRoots).toEqual([world.project]);
  });

  it("accepts nvm, volta, asdf and fnm layouts; skips non-version, symlinked and non-executable dirs", async () => {
    const world = await makeWorld(dirs);
    const volta = path.join(world.tmp, ".volta", "tools", "image", "node");
    const asdf = path.join(world.tmp, ".asdf", "installs", "nodejs");
    const fnm = path.join(world.tmp, ".fnm", "node-versions");
    await installPosix(volta, "19.0.0");
    await installPosix(asdf, "21.0.0");
    await installPosix(fnm, "v23.1.0", { fnm: true });
    await installPosix(world.installs, "lts-iron");
    await symlink(path.join(world.installs, "v22.2.0"), path.join(world.installs, "v24.0.0"));
    const noExec = await installPosix(world.installs, "v17.0.0");
    await chmod(noExec.node, 0o644);
    const linkedBin = path.join(world.installs, "v16.0.0", "bin");
    await mkdir(linkedBin, { recursive: true });
    await symlink(
      path.join(world.installs, "v20.1.0", "bin", "node"),
      path.join(linkedBin, "node"),
    );
    const selector = (await createNodeSelector(
      projectOptions(world, { installationRoots: [world.installs, volta, asdf, fnm, "~/missing"] }),
    ))!;
    expect(selector.variantSet().variants.map((item) => item.version)).toEqual([
      "23.1.0",
      "22.2.0",
      "21.0.0",
      "20.1.0",
      "19.0.0",
      "18.20.0",
    ]);
    const warnings = selector.warnings.join("\n");
    expect(warnings).toContain(path.join(world.tmp, "missing"));
    expect(warnings).toMatch(/v24\.0\.0 is ignored: a version must be a real directory/);
    expect(warnings).toMatch(/v17\.0\.0 is not a Node installation/);
    expect(warnings).toMatch(/v16\.0\.0 is not a Node installation/);
  });

  it("the first installation root wins a version found twice", async () => {
    const world = await makeWorld(dirs);
    const volta = path.join(world.tmp, "volta");
    const other = await installPosix(volta, "20.1.0");
    const selector = (await createNodeSelector(
      projectOptions(world, { installationRoots: [volta, world.installs] }),
    ))!;
    const v20 = selector.variantSet().variants.find((item) => item.version === "20.1.0");
    expect(v20?.executable).toBe(other.node);
    expect(selector.warnings.join("\n")).toMatch(/already provides that version/);
  });

  it("nothing is configured: undefined (v2 without projectNode, v1 disabled or absent)", async () => {
    const world = await makeWorld(dirs);
    const base = projectOptions(world);
    expect(await createNodeSelector({ ...base, projectNode: undefined })).toBeUndefined();
    expect(
      await createNodeSelector({ ...base, manifestVersion: 1, projectNode: undefined }),
    ).toBeUndefined();
    expect(
      await createNodeSelector({
        ...base,
        manifestVersion: 1,
        projectNode: undefined,
        nodeResolution: { enabled: false, installationRoots: [world.installs] },
      }),
    ).toBeUndefined();
  });

  it("nothing under the installation roots is executed at startup", async () => {
    const world = await makeWorld(dirs);
    const marker = path.join(world.tmp, "executed");
    const trap = await installPosix(world.installs, "v21.0.0");
    await writeFile(trap.node, `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(trap.node, 0o755);
    await createNodeSelector(projectOptions(world));
    const { existsSync } = await import("node:fs");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("startup errors", () => {
  it("an enabled root that does not exist is PROJECT_NODE_ROOT_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const missing = path.join(world.root, "nope");
    const error = await errorOf(
      createNodeSelector(projectOptions(world, { enabledRoots: [missing] })),
    );
    expect(error.code).toBe("PROJECT_NODE_ROOT_UNAVAILABLE");
    expect(error.message).toContain(missing);
  });

  it("an enabled root that is a file is PROJECT_NODE_ROOT_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const file = await put(path.join(world.root, "file"), "x");
    expect(
      (await errorOf(createNodeSelector(projectOptions(world, { enabledRoots: [file] })))).code,
    ).toBe("PROJECT_NODE_ROOT_UNAVAILABLE");
  });

  it("an enabled root outside every Root is PROJECT_NODE_ROOT_NOT_AUTHORIZED (also via ~/ and symlinks)", async () => {
    const world = await makeWorld(dirs);
    const outside = path.join(world.tmp, "outside");
    await mkdir(outside);
    const error = await errorOf(
      createNodeSelector(projectOptions(world, { enabledRoots: ["~/outside"] })),
    );
    expect(error.code).toBe("PROJECT_NODE_ROOT_NOT_AUTHORIZED");
    expect(error.message).toContain(outside);
    const sneaky = path.join(world.project, "sneaky");
    await symlink(outside, sneaky);
    expect(
      (await errorOf(createNodeSelector(projectOptions(world, { enabledRoots: [sneaky] })))).code,
    ).toBe("PROJECT_NODE_ROOT_NOT_AUTHORIZED");
  });

  it("a defaultVersion that is not installed is PROJECT_NODE_VERSION_UNAVAILABLE", async () => {
    const world = await makeWorld(dirs);
    const error = await errorOf(
      createNodeSelector(projectOptions(world, { defaultVersion: "v21.0.0" })),
    );
    expect(error.code).toBe("PROJECT_NODE_VERSION_UNAVAILABLE");
    expect(error.message).toMatch(/defaultVersion v21\.0\.0.*22\.2\.0, 20\.1\.0, 18\.20\.0/);
  });

  it("no installation at all is NODE_VARIANTS_UNAVAILABLE (v2 and enabled v1)", async () => {
    const world = await makeWorld(dirs);
    const empty = path.join(world.tmp, "empty");
    await mkdir(empty);
    const error = await errorOf(
      createNodeSelector(projectOptions(world, { installationRoots: [empty] })),
    );
    expect(error.code).toBe("NODE_VARIANTS_UNAVAILABLE");
    expect(error.message).toContain(empty);
    const v1 = await errorOf(
      createNodeSelector({
        ...projectOptions(world),
        manifestVersion: 1,
        projectNode: undefined,
        nodeResolution: { enabled: true, installationRoots: [empty] },
      }),
    );
    expect(v1.code).toBe("NODE_VARIANTS_UNAVAILABLE");
  });

  it("no registered native node is NODE_RESOLUTION_NODE_REQUIRED (v2 and enabled v1)", async () => {
    const world = await makeWorld(dirs);
    const npmOnly = new Map([["npm", registeredProgram("npm", "/usr/bin/npm")]]);
    const options = { ...projectOptions(world), staticNode: undefined, staticPrograms: npmOnly };
    expect((await errorOf(createNodeSelector(options))).code).toBe("NODE_RESOLUTION_NODE_REQUIRED");
    const v1 = await errorOf(
      createNodeSelector({
        ...options,
        manifestVersion: 1,
        projectNode: undefined,
        nodeResolution: { enabled: true, installationRoots: [world.installs] },
      }),
    );
    expect(v1.code).toBe("NODE_RESOLUTION_NODE_REQUIRED");
    const cmdNode = {
      ...registeredProgram("node", "C:/tools/node.cmd"),
      kind: "cmd-script" as const,
    };
    const cmd = await errorOf(
      createNodeSelector({
        ...projectOptions(world),
        staticNode: cmdNode,
        staticPrograms: new Map(),
      }),
    );
    expect(cmd.code).toBe("NODE_RESOLUTION_NODE_REQUIRED");
    expect(cmd.message).toContain("cmd-script");
  });

  it("the static node is taken from staticPrograms when staticNode is not given", async () => {
    const world = await makeWorld(dirs);
    const selector = await createNodeSelector({ ...projectOptions(world), staticNode: undefined });
    expect(selector?.variantSet().fallbackExecutable).toBe(world.staticNode.executable);
  });

  it("NODE_RESOLUTION_NODE_REQUIRED is checked before the roots and installations", async () => {
    const world = await makeWorld(dirs);
    const error = await errorOf(
      createNodeSelector({
        ...projectOptions(world, {
          enabledRoots: ["/nonexistent-xyz"],
          installationRoots: ["/nonexistent"],
        }),
        staticNode: undefined,
        staticPrograms: new Map(),
      }),
    );
    expect(error.code).toBe("NODE_RESOLUTION_NODE_REQUIRED");
  });
});

describe("Windows drive paths on a POSIX host", () => {
  it("are accepted as written and simply do not exist", async () => {
    const world = await makeWorld(dirs);
    const selector = await createNodeSelector(
      projectOptions(world, {
        installationRoots: ["C:\\Users\\me\\AppData\\Roaming\\nvm", world.installs],
      }),
    );
    expect(selector?.warnings.join("\n")).toContain("not an absolute path on this platform");
    const error = await errorOf(
      createNodeSelector(projectOptions(world, { enabledRoots: ["C:/work"] })),
    );
    expect(error.code).toBe("PROJECT_NODE_ROOT_UNAVAILABLE");
  });
});
