// Where this package is installed, found by walking up from this module to the package.json named
// system-command-mcp — so the same code works from src/ (tests), dist/ and the bundle.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "system-command-mcp";

export interface PackageJson {
  name: string;
  version: string;
}

function findPackageRoot(start: string): { root: string; packageJson: PackageJson } {
  let dir = path.dirname(start);
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const packageJson = JSON.parse(readFileSync(file, "utf8")) as PackageJson;
      if (packageJson.name === PACKAGE_NAME) return { root: dir, packageJson };
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`expected ${PACKAGE_NAME}'s package.json above ${start}, found none`);
    }
    dir = parent;
  }
}

const found = findPackageRoot(fileURLToPath(import.meta.url));

/** The package's directory (holding package.json, the schema file and dist/). */
export const PACKAGE_ROOT: string = found.root;

/** The package's own package.json. */
export const PACKAGE_JSON: PackageJson = found.packageJson;

/** A path inside the package. */
export function packagePath(...parts: string[]): string {
  return path.join(PACKAGE_ROOT, ...parts);
}
