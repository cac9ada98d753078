// Realistic Node installation trees and projects in temp dirs, for the test/node-*.test.ts files.

import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { CommandError } from "../src/errors.js";
import type { RegisteredProgram } from "../src/programs/types.js";
import {
  createNodeSelector,
  type NodeSelector,
  type NodeSelectorOptions,
} from "../src/node/index.js";

/** A fresh real temp dir; remember to remove it. */
export async function makeTempDir(): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), "scm-node-")));
}

/** Removes temp dirs made by a test. */
export async function removeAll(dirs: string[]): Promise<void> {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** A list for the temp dirs of each test (makeWorld's `dirs`), all removed after each test. */
export function tempDirsPerTest(): string[] {
  const dirs: string[] = [];
  afterEach(() => removeAll(dirs));
  return dirs;
}

/** A `node` that is a tiny shell script printing its version and arguments. */
export function nodeScript(version: string): string {
  return `#!/bin/sh\necho "node ${version} $*"\n`;
}

export interface InstallOptions {
  npm?: boolean;
  npx?: boolean;
  /** fnm's `<version>/installation/bin/node`. */
  fnm?: boolean;
}

/** npm's `npm-cli.js` and `npx-cli.js` in `cliDir` (each unless `options` says no); their paths. */
async function writeNpmClis(
  cliDir: string,
  options: InstallOptions,
): Promise<{ npmCli: string; npxCli: string }> {
  const npmCli = path.join(cliDir, "npm-cli.js");
  const npxCli = path.join(cliDir, "npx-cli.js");
  if (options.npm ?? true) {
    await mkdir(cliDir, { recursive: true });
    await writeFile(npmCli, "// npm\n");
  }
  if (options.npx ?? true) {
    await mkdir(cliDir, { recursive: true });
    await writeFile(npxCli, "// npx\n");
  }
  return { npmCli, npxCli };
}

/** A POSIX installation (nvm/volta/asdf/n, or fnm): `<root>/<dirName>/bin/node` and npm's CLIs. */
export async function installPosix(
  root: string,
  dirName: string,
  options: InstallOptions = {},
): Promise<{ dir: string; prefix: string; node: string; npmCli: string; npxCli: string }> {
  const dir = path.join(root, dirName);
  const prefix = options.fnm ? path.join(dir, "installation") : dir;
  const binDir = path.join(prefix, "bin");
  await mkdir(binDir, { recursive: true });
  const node = path.join(binDir, "node");
  await writeFile(node, nodeScript(dirName.replace(/^v/, "")));
  await chmod(node, 0o755);
  const clis = await writeNpmClis(path.join(prefix, "lib", "node_modules", "npm", "bin"), options);
  return { dir, prefix, node, ...clis };
}

/** A Windows installation (nvm-windows, volta): `<root>/<dirName>/node.exe` + node_modules/npm. */
export async function installWindows(
  root: string,
  dirName: string,
  options: InstallOptions = {},
): Promise<{ dir: string; node: string; npmCli: string; npxCli: string }> {
  const dir = path.join(root, dirName);
  await mkdir(dir, { recursive: true });
  const node = path.join(dir, "node.exe");
  await writeFile(node, "MZ fake node.exe\n");
  const clis = await writeNpmClis(path.join(dir, "node_modules", "npm", "bin"), options);
  return { dir, node, ...clis };
}

/** A registered program as startup would produce it. */
export function registeredProgram(name: string, executable: string): RegisteredProgram {
  return {
    name,
    spawnPath: executable,
    executable,
    declaredCandidate: executable,
    kind: "native",
    required: true,
    policy: {
      maxTimeoutMs: 600_000,
      allowStdin: false,
      gracePeriodMs: 2_000,
      finalTerminationWaitMs: 5_000,
      artifactPolicy: "on-truncation",
      allowBackground: false,
      maxBackgroundTimeoutMs: 3_600_000,
    },
    env: {},
    pathDirs: [],
    pathDiffers: false,
  };
}

/** Writes a file, creating its directory. */
export async function put(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** Writes a package.json from an object. */
export async function putPackage(dir: string, value: unknown): Promise<string> {
  return put(path.join(dir, "package.json"), JSON.stringify(value, null, 2));
}

/** A world: temp dir, an nvm-like installation root with three versions, a Root and a project. */
export interface World {
  tmp: string;
  installs: string;
  root: string;
  project: string;
  staticNode: RegisteredProgram;
  staticPrograms: Map<string, RegisteredProgram>;
}

/** The versions every world has installed. */
export const WORLD_VERSIONS = ["v18.20.0", "v20.1.0", "v22.2.0"] as const;

/** Builds a world in a fresh temp dir (added to `dirs` for cleanup). */
export async function makeWorld(dirs: string[]): Promise<World> {
  const tmp = await makeTempDir();
  dirs.push(tmp);
  const installs = path.join(tmp, "nvm", "versions", "node");
  for (const version of WORLD_VERSIONS) {
    await installPosix(installs, version);
  }
  const root = path.join(tmp, "work");
  const project = path.join(root, "project");
  await mkdir(project, { recursive: true });
  const staticNode = registeredProgram("node", path.join(installs, "v20.1.0", "bin", "node"));
  const staticPrograms = new Map([["node", staticNode]]);
  return { tmp, installs, root, project, staticNode, staticPrograms };
}

/** v2 selector options over a world (projectNode and the rest overridable). */
export function projectOptions(
  world: World,
  projectNode: Record<string, unknown> = {},
  extra: Partial<NodeSelectorOptions> = {},
): NodeSelectorOptions {
  return {
    manifestVersion: 2,
    projectNode: {
      enabledRoots: [world.project],
      installationRoots: [world.installs],
      defaultVersion: "20.1.0",
      ...projectNode,
    },
    roots: [world.root],
    staticNode: world.staticNode,
    staticPrograms: world.staticPrograms,
    homeDir: world.tmp,
    ...extra,
  };
}

/** A v2 selector over a world (projectNode overridable). */
export async function projectSelector(
  world: World,
  projectNode: Record<string, unknown> = {},
  extra: Partial<NodeSelectorOptions> = {},
): Promise<NodeSelector> {
  const selector = await createNodeSelector(projectOptions(world, projectNode, extra));
  if (selector === undefined) {
    throw new Error("expected a selector");
  }
  return selector;
}

/** The CommandError a promise rejects with (anything else fails the test). */
export async function errorOf(promise: Promise<unknown>): Promise<CommandError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CommandError) return error;
    throw error;
  }
  throw new Error("expected a CommandError, but the promise resolved");
}

/** The code of the CommandError a promise rejects with. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  return (await errorOf(promise)).code;
}
