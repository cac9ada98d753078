// From a chosen installation to what the runtime spawns: pairing and identity checks (SPEC §12).

import { CommandError } from "../errors.js";
import { NPM_CLI_ADAPTER, type NodeProgram } from "./constants.js";
import { isUnchanged } from "./identity.js";
import path from "node:path";
import type { Choice, LaunchPlan, NodeInstallation, RecordedFile } from "./types.js";

/** The plan for running `program` with the chosen installation, after re-checking its files. */
export async function buildLaunchPlan(program: NodeProgram, choice: Choice): Promise<LaunchPlan> {
  const installation = choice.installation;
  const cli = program === "node" ? undefined : pairedCli(program, installation);
  await ensureUnchanged(installation, installation.node, "node executable");
  if (cli !== undefined) {
    await ensureUnchanged(installation, cli, `${program} CLI`);
  }
  const selection: LaunchPlan["selection"] = {
    logicalName: program,
    executable: installation.node.path,
    version: installation.version,
    source: choice.source,
  };
  if (choice.requirement !== undefined) {
    selection.requirement = choice.requirement;
  }
  if (cli !== undefined) {
    selection.adapter = NPM_CLI_ADAPTER;
  }
  return {
    command: installation.node.path,
    argsPrefix: cli === undefined ? [] : [cli.path],
    pathPrepend: installation.binDir,
    selection,
  };
}

/** The npm/npx CLI paired with the installation, or PROJECT_NPM/NPX_UNAVAILABLE. */
function pairedCli(program: "npm" | "npx", installation: NodeInstallation): RecordedFile {
  const cli = program === "npm" ? installation.npmCli : installation.npxCli;
  if (cli !== undefined) {
    return cli;
  }
  const expected = path.join(installation.cliDir, `${program}-cli.js`);
  throw new CommandError(
    program === "npm" ? "PROJECT_NPM_UNAVAILABLE" : "PROJECT_NPX_UNAVAILABLE",
    `Node ${installation.version} at ${installation.directory} has no paired ${program}: ` +
      `expected a regular file ${expected} when the server started. Reinstall npm for that ` +
      `version and restart the server, or select another version.`,
  );
}

/** NODE_VARIANT_CHANGED when a file was replaced or rewritten since startup. */
async function ensureUnchanged(
  installation: NodeInstallation,
  file: RecordedFile,
  what: string,
): Promise<void> {
  if (await isUnchanged(file)) {
    return;
  }
  throw new CommandError(
    "NODE_VARIANT_CHANGED",
    `The ${what} of Node ${installation.version} (${file.path}) was replaced, changed or ` +
      `removed since the server started. Restart the server to pick up the new installation.`,
  );
}
