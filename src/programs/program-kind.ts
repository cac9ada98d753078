// native vs cmd-script (SPEC §10): Windows batch files re-parse their arguments.

import type { ProgramKind } from "./types.js";

const BATCH_FILE = /\.(?:cmd|bat)$/i;

/** cmd-script when the found path or the real path ends in .cmd/.bat (any case), else native. */
export function programKind(spawnPath: string, executable: string): ProgramKind {
  return BATCH_FILE.test(spawnPath) || BATCH_FILE.test(executable) ? "cmd-script" : "native";
}
