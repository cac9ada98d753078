// Startup checks of v2 `projectNode.enabledRoots`: existing directories inside a Root (SPEC §11, §12).

import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { CommandError, errnoCode } from "../errors.js";
import { isInside } from "./paths.js";

/** The enabled roots as real paths; each must exist, be a directory and lie inside a Root. */
export async function resolveEnabledRoots(
  enabledRoots: readonly string[],
  roots: readonly string[],
): Promise<string[]> {
  const resolved: string[] = [];
  for (const enabledRoot of enabledRoots) {
    const real = await existingDirectory(enabledRoot);
    if (!roots.some((root) => isInside(root, real))) {
      throw new CommandError(
        "PROJECT_NODE_ROOT_NOT_AUTHORIZED",
        `manifest projectNode.enabledRoots entry ${enabledRoot} (${real}) is outside every Root ` +
          `(${roots.join(", ") || "none"}). Expected a directory inside a --root; add the Root ` +
          `or remove the entry.`,
      );
    }
    if (!resolved.includes(real)) {
      resolved.push(real);
    }
  }
  return resolved;
}

/** The real path of an existing directory, or PROJECT_NODE_ROOT_UNAVAILABLE. */
async function existingDirectory(enabledRoot: string): Promise<string> {
  if (!path.isAbsolute(enabledRoot)) {
    throw unavailable(enabledRoot, "is not an absolute path on this platform");
  }
  let real: string;
  try {
    real = await realpath(enabledRoot);
  } catch (error) {
    throw unavailable(enabledRoot, `does not exist (${errnoCode(error)})`);
  }
  const stats = await stat(real).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory()) {
    throw unavailable(enabledRoot, "is not a directory");
  }
  return real;
}

/** PROJECT_NODE_ROOT_UNAVAILABLE naming the entry. */
function unavailable(enabledRoot: string, problem: string): CommandError {
  return new CommandError(
    "PROJECT_NODE_ROOT_UNAVAILABLE",
    `manifest projectNode.enabledRoots entry ${enabledRoot} ${problem}. Expected an existing ` +
      `directory; create it or remove the entry.`,
  );
}
