// The domain of Project Node resolution: installations, declarations and launch plans (SPEC §12).

import type { ProgramSelection } from "../programs/types.js";

/** What identifies one file on disk; a change means it was replaced or rewritten. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
}

/** A file recorded at startup together with its identity. */
export interface RecordedFile {
  path: string;
  identity: FileIdentity;
}

/** One Node installation found at startup; never changes while the server runs. */
export interface NodeInstallation {
  /** Normalised exact version without `v`, e.g. `20.1.0`. */
  version: string;
  /** The version directory (`…/v20.1.0`), a real path. */
  directory: string;
  /** The prefix holding `bin/` (the version dir, or `installation/` for fnm). */
  prefix: string;
  /** The directory holding the node executable; prepended to the child's PATH. */
  binDir: string;
  node: RecordedFile;
  /** Where this layout keeps `npm-cli.js` and `npx-cli.js` (they may be missing). */
  cliDir: string;
  /** The paired npm CLI, when the installation had one at startup. */
  npmCli?: RecordedFile;
  /** The paired npx CLI, when the installation had one at startup. */
  npxCli?: RecordedFile;
}

/** One version declaration found in a project, as written. */
export interface Declaration {
  /** Which kind of declaration (`programSelection.source`). */
  source: string;
  /** The declared text, trimmed. */
  raw: string;
  /** The file it was read from (absolute). */
  file: string;
}

/** What a request resolved to, before pairing and identity checks. */
export interface Choice {
  installation: NodeInstallation;
  source: string;
  requirement?: string;
}

/** How to launch the selected Node for one request. */
export interface LaunchPlan {
  /** The selected node executable to spawn. */
  command: string;
  /** `[]` for node; `[pairedCliPath]` for npm/npx. */
  argsPrefix: string[];
  /** The selected version's bin dir, prepended to that child's PATH only. */
  pathPrepend: string;
  selection: ProgramSelection;
}
