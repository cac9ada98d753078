// The launch-plan step of confinement (SPEC §20), kept out of runtime.ts: a confined program's
// spawn is wrapped by the confinement stage; an unconfined one passes through unchanged.

import type { ConfinedLaunch, Launcher } from "../confinement/index.js";
import { CommandError } from "../errors.js";
import type { LaunchSpec } from "../process/spawn.js";
import type { RegisteredProgram } from "../programs/types.js";
import type { ProgramSelection } from "./types.js";

/** The confined launch of `program`, or undefined when it runs unconfined; fails closed. */
export async function confineLaunch(
  program: RegisteredProgram,
  launch: LaunchSpec,
  launcher: Launcher | undefined,
  roots: string[],
): Promise<ConfinedLaunch | undefined> {
  if (!program.sandbox) return undefined;
  if (!launcher) {
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `${program.name} is confined by the manifest but this runtime has no sandbox adapter; ` +
        `start it through the CLI (which probes the adapter) or pass one`,
    );
  }
  return launcher.wrap(program.sandbox, launch, roots);
}

/**
 * The selection a confined program will report, known before the launch is wrapped (the audit
 * log's exec-start records it before the spawn).
 */
export function plannedSelection(
  selection: ProgramSelection,
  program: RegisteredProgram,
  launcher: Launcher | undefined,
): ProgramSelection {
  if (!program.sandbox || !launcher) return selection;
  const { filesystem, network } = program.sandbox;
  return { ...selection, sandbox: { adapter: launcher.adapter.adapter, filesystem, network } };
}
