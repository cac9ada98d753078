// Startup discovery of Node installations under the installation roots (SPEC §12).
// Nothing is executed and no manager is consulted: only directory names and regular files count.

import { constants, type Dirent } from "node:fs";
import { access, lstat, readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { identityOf } from "./identity.js";
import { compareNewestFirst, parseExactVersion } from "./versions.js";
import type { NodeInstallation, RecordedFile } from "./types.js";

/** Where, inside one version directory, a layout keeps node and its npm package. */
interface Layout {
  /** The prefix directory, relative to the version directory. */
  prefix: string;
  /** The directory of the node executable, relative to the version directory. */
  binDir: string;
  /** The npm package directory, relative to the version directory. */
  npmPackage: string;
}

/** POSIX layouts: nvm, volta, asdf, n (`bin/node`) and fnm (`installation/bin/node`). */
const POSIX_LAYOUTS: Layout[] = [
  { prefix: ".", binDir: "bin", npmPackage: "lib/node_modules/npm" },
  {
    prefix: "installation",
    binDir: "installation/bin",
    npmPackage: "installation/lib/node_modules/npm",
  },
];

/** Windows layouts: nvm-windows, volta (`node.exe`) and fnm (`installation/node.exe`). */
const WINDOWS_LAYOUTS: Layout[] = [
  { prefix: ".", binDir: ".", npmPackage: "node_modules/npm" },
  { prefix: "installation", binDir: "installation", npmPackage: "installation/node_modules/npm" },
];

/** What startup found in the installation roots. */
export interface InstallationScan {
  /** Newest first, one per version (the first installation root that has a version wins). */
  installations: NodeInstallation[];
  /** Skipped roots, directories and duplicate versions, for doctor. */
  warnings: string[];
}

/** The executable file name of node on a platform. */
export function nodeExecutableName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "node.exe" : "node";
}

/** Builds the immutable installation set from the installation roots, in order. */
export async function scanInstallationRoots(
  roots: readonly string[],
  platform: NodeJS.Platform,
): Promise<InstallationScan> {
  const byVersion = new Map<string, NodeInstallation>();
  const warnings: string[] = [];
  for (const root of roots) {
    const found = await scanRoot(root, platform, warnings);
    for (const installation of found) {
      const earlier = byVersion.get(installation.version);
      if (earlier !== undefined) {
        warnings.push(
          `Node ${installation.version} at ${installation.directory} is ignored: ` +
            `${earlier.directory} already provides that version.`,
        );
        continue;
      }
      byVersion.set(installation.version, installation);
    }
  }
  const installations = [...byVersion.values()].sort((a, b) =>
    compareNewestFirst(a.version, b.version),
  );
  return { installations, warnings };
}

/** The installations directly under one installation root. */
async function scanRoot(
  root: string,
  platform: NodeJS.Platform,
  warnings: string[],
): Promise<NodeInstallation[]> {
  if (!path.isAbsolute(root)) {
    warnings.push(`Node installation root ${root} is not an absolute path on this platform.`);
    return [];
  }
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    warnings.push(`Node installation root ${root} does not exist; it provides no versions.`);
    return [];
  }
  let entries: Dirent[];
  try {
    entries = await readdir(realRoot, { withFileTypes: true });
  } catch {
    warnings.push(`Node installation root ${root} is not a readable directory.`);
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const found: NodeInstallation[] = [];
  for (const entry of entries) {
    const name = entry.name;
    const version = parseExactVersion(name);
    if (version === undefined) {
      continue;
    }
    if (!entry.isDirectory()) {
      warnings.push(
        `${path.join(realRoot, name)} is ignored: a version must be a real directory, ` +
          `not a symbolic link or a file.`,
      );
      continue;
    }
    const installation = await readInstallation(path.join(realRoot, name), version, platform);
    if (installation === undefined) {
      warnings.push(
        `${path.join(realRoot, name)} is not a Node installation: expected ` +
          `${expectedLayouts(platform)} as a regular executable file.`,
      );
      continue;
    }
    found.push(installation);
  }
  return found;
}

/** The first layout of a version directory that holds a usable node executable. */
async function readInstallation(
  directory: string,
  version: string,
  platform: NodeJS.Platform,
): Promise<NodeInstallation | undefined> {
  const layouts = platform === "win32" ? WINDOWS_LAYOUTS : POSIX_LAYOUTS;
  for (const layout of layouts) {
    const binDir = path.join(directory, layout.binDir);
    const node = await recordFile(path.join(binDir, nodeExecutableName(platform)), {
      executable: platform !== "win32",
    });
    if (node === undefined) {
      continue;
    }
    const cliDir = path.join(directory, layout.npmPackage, "bin");
    const npmCli = await recordFile(path.join(cliDir, "npm-cli.js"), { executable: false });
    const npxCli = await recordFile(path.join(cliDir, "npx-cli.js"), { executable: false });
    return {
      version,
      directory,
      prefix: path.join(directory, layout.prefix),
      binDir,
      node,
      cliDir,
      npmCli,
      npxCli,
    };
  }
  return undefined;
}

/** Records a file when it is a regular file reached without any symlink (and executable if asked). */
async function recordFile(
  file: string,
  options: { executable: boolean },
): Promise<RecordedFile | undefined> {
  try {
    const stats = await lstat(file, { bigint: true });
    if (!stats.isFile()) {
      return undefined;
    }
    if ((await realpath(file)) !== file) {
      return undefined;
    }
    if (options.executable) {
      await access(file, constants.X_OK);
    }
    return { path: file, identity: identityOf(stats) };
  } catch {
    return undefined;
  }
}

/** The layouts a platform accepts, for messages. */
function expectedLayouts(platform: NodeJS.Platform): string {
  const name = nodeExecutableName(platform);
  return platform === "win32"
    ? `${name} or installation/${name}`
    : `bin/${name} or installation/bin/${name}`;
}
