// `migrate-manifest INPUT [OUTPUT] --root R…`: v1 nodeResolution → v2 projectNode (SPEC §12, §13).

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { validateManifest } from "../src/manifest/validate.js";
import { makeWorld, tempDirsPerTest, type World } from "./node-fixtures.js";
import { errorCode, runCli, writeJson } from "./cli-helpers.js";

const dirs = tempDirsPerTest();

/** A v1 manifest whose static node is one of the world's installations. */
function v1Manifest(world: World, nodeVersion = "v20.1.0"): Record<string, unknown> {
  return {
    version: 1,
    nodeResolution: { enabled: true, installationRoots: [world.installs] },
    programs: {
      node: { candidates: [path.join(world.installs, nodeVersion, "bin", "node")], required: true },
    },
  };
}

describe("migrate-manifest", () => {
  it("writes <INPUT>.v2.json with projectNode, and never overwrites it", async () => {
    const world = await makeWorld(dirs);
    const input = writeJson(path.join(world.tmp, "m.json"), v1Manifest(world));
    const run = runCli(["migrate-manifest", input, "--root", world.root]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const output = `${input}.v2.json`;
    expect(run.stdout).toContain(`wrote ${output}`);
    const migrated = JSON.parse(readFileSync(output, "utf8"));
    validateManifest(migrated);
    expect(migrated.version).toBe(2);
    expect(migrated.nodeResolution).toBeUndefined();
    expect(migrated.projectNode).toEqual({
      enabledRoots: [world.root],
      installationRoots: [world.installs],
      defaultVersion: "20.1.0",
    });
    // The migrated manifest starts: doctor accepts it.
    const doctor = runCli(["doctor", "--manifest", output, "--root", world.root]);
    expect(doctor.status).toBe(0);

    const again = runCli(["migrate-manifest", input, "--root", world.root]);
    expect(again.status).toBe(1);
    expect(errorCode(again.stderr)).toBe("MANIFEST_EXISTS");
  });

  it("writes to an explicit OUTPUT relative to the cwd", async () => {
    const world = await makeWorld(dirs);
    writeJson(path.join(world.tmp, "m.json"), v1Manifest(world));
    const run = runCli(["migrate-manifest", "m.json", "out.json", "--root", "work"], {
      cwd: world.tmp,
    });
    expect(run.status).toBe(0);
    expect(existsSync(path.join(world.tmp, "out.json"))).toBe(true);
    expect(existsSync(path.join(world.tmp, "m.json.v2.json"))).toBe(false);
  });

  it("refuses a version 2 manifest (MIGRATION_NOT_APPLICABLE, exit 1)", async () => {
    const world = await makeWorld(dirs);
    const input = writeJson(path.join(world.tmp, "v2.json"), {
      version: 2,
      programs: { node: { candidates: [process.execPath] } },
    });
    const run = runCli(["migrate-manifest", input, "--root", world.root]);
    expect(run.status).toBe(1);
    expect(errorCode(run.stderr)).toBe("MIGRATION_NOT_APPLICABLE");
    expect(existsSync(`${input}.v2.json`)).toBe(false);
  });

  it("fails when the static node is none of the installations", async () => {
    const world = await makeWorld(dirs);
    const manifest = v1Manifest(world);
    manifest.programs = { node: { candidates: [process.execPath], required: true } };
    const input = writeJson(path.join(world.tmp, "m.json"), manifest);
    const run = runCli(["migrate-manifest", input, "--root", world.root]);
    expect(run.status).toBe(1);
    expect(errorCode(run.stderr)).toBe("MIGRATION_DEFAULT_VERSION_UNAVAILABLE");
  });

  it("needs INPUT and --root (usage errors, exit 2)", async () => {
    const world = await makeWorld(dirs);
    const input = writeJson(path.join(world.tmp, "m.json"), v1Manifest(world));
    const noRoot = runCli(["migrate-manifest", input]);
    expect(noRoot.status).toBe(2);
    expect(errorCode(noRoot.stderr)).toBe("ROOT_REQUIRED");
    const noInput = runCli(["migrate-manifest", "--root", world.root]);
    expect(noInput.status).toBe(2);
    expect(errorCode(noInput.stderr)).toBe("MANIFEST_REQUIRED");
  });

  it.each([
    ["MANIFEST_READ_FAILED", (dir: string) => path.join(dir, "missing.json")],
    [
      "MANIFEST_JSON_INVALID",
      (dir: string) => {
        const file = path.join(dir, "broken.json");
        writeFileSync(file, "{");
        return file;
      },
    ],
    [
      "INVALID_MANIFEST",
      (dir: string) => writeJson(path.join(dir, "invalid.json"), { version: 1, programs: 3 }),
    ],
  ])("reports %s for a bad INPUT (exit 1)", async (code, makeInput) => {
    const world = await makeWorld(dirs);
    const run = runCli(["migrate-manifest", makeInput(world.tmp), "--root", world.root]);
    expect(run.status).toBe(1);
    expect(errorCode(run.stderr)).toBe(code);
  });
});
