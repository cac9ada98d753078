// `whenNoSelector: "active-manager"`: the installation a manager's link points at right now (SPEC §12).
// The link is re-read on every request, so `nvm use` & co. take effect without a restart.

import { lstat, readlink, realpath } from "node:fs/promises";
import { CommandError, errnoCode } from "../errors.js";
import type { NodeInstallation } from "./types.js";

/** The startup installation the active-manager link points at; anything else is an error. */
export async function activeInstallation(
  link: string,
  installations: readonly NodeInstallation[],
): Promise<NodeInstallation> {
  let isLink: boolean;
  try {
    isLink = (await lstat(link)).isSymbolicLink();
  } catch (error) {
    throw unavailable(link, `does not exist (${errnoCode(error)})`);
  }
  if (!isLink) {
    throw unavailable(link, "is not a symbolic link or junction");
  }
  let target: string;
  try {
    target = await realpath(link);
  } catch {
    const written = await readlink(link).catch(() => "?");
    throw unavailable(link, `is broken: its target ${written} does not exist`);
  }
  const found = installations.find((installation) => pointsAt(installation, target));
  if (found === undefined) {
    const versions = installations.map((installation) => installation.version).join(", ");
    throw unavailable(
      link,
      `points at ${target}, which is none of the Node installations found at startup ` +
        `(${versions}); restart the server after installing a new version`,
    );
  }
  return found;
}

/** Whether a link target denotes an installation: its version dir, prefix, bin dir or node. */
function pointsAt(installation: NodeInstallation, target: string): boolean {
  return (
    target === installation.directory ||
    target === installation.prefix ||
    target === installation.binDir ||
    target === installation.node.path
  );
}

/** PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE naming the link. */
function unavailable(link: string, problem: string): CommandError {
  return new CommandError(
    "PROJECT_NODE_ACTIVE_VERSION_UNAVAILABLE",
    `The active-manager link ${link} (manifest projectNode.activeManagerLinks) ${problem}. ` +
      `Select a version with your version manager, or pin one in the project (.nvmrc).`,
  );
}
