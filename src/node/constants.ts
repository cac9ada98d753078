// The numbers and names of Project Node resolution (SPEC §12), in one place.

import { BYTE_UNITS } from "../limits.js";

/** Largest package.json read as a declaration (§12). */
export const PACKAGE_JSON_MAX_BYTES = 1 * BYTE_UNITS.MiB;

/** Largest `.nvmrc` / `.node-version` read as a declaration (§12). */
export const VERSION_FILE_MAX_BYTES = 4_096;

/** The programs Project Node resolution redirects; pnpm, yarn, bun are never redirected. */
export const NODE_PROGRAMS = ["node", "npm", "npx"] as const;
export type NodeProgram = (typeof NODE_PROGRAMS)[number];

/** `programSelection.source` values (§12). */
export const SOURCE = {
  devEngines: "package.json#devEngines.runtime",
  volta: "package.json#volta.node",
  nvmrc: ".nvmrc",
  nodeVersion: ".node-version",
  engines: "package.json#engines.node",
  activeManager: "active-manager",
  defaultVersion: "manifest#projectNode.defaultVersion",
} as const;

/** `programSelection.adapter` for npm/npx run as `<node> <paired cli>`. */
export const NPM_CLI_ADAPTER = "npm-cli";

/** v1 `nodeResolution` default installation roots on POSIX, relative to the home directory. */
export const POSIX_DEFAULT_INSTALLATION_ROOTS = [
  ".nvm/versions/node",
  ".volta/tools/image/node",
  ".fnm/node-versions",
  ".asdf/installs/nodejs",
] as const;

/** v1 `nodeResolution` default installation roots on Windows (after `%NVM_HOME%`), under home. */
export const WINDOWS_DEFAULT_INSTALLATION_ROOTS = [
  "AppData/Roaming/nvm",
  ".volta/tools/image/node",
] as const;

/** The environment variable nvm-windows keeps its installation root in. */
export const NVM_HOME_VARIABLE = "NVM_HOME";
