// What the runtime needs from the artifact store and from Project Node selection, stated as
// narrow interfaces so each stage can be built and tested on its own.

import type { VariantSetReport } from "../programs/types.js";
import type { ProgramSelection } from "./types.js";

export type { ArtifactBackend } from "../artifacts/backend.js";

/** A per-request launch decided by Project Node selection (src/node). */
export interface LaunchPlan {
  command: string;
  argsPrefix: string[];
  pathPrepend: string;
  selection: ProgramSelection;
}

/** Project Node selection as the runtime uses it. */
export interface NodeLauncher {
  variantSet(): VariantSetReport;
  select(program: string, cwd: string): Promise<LaunchPlan | undefined>;
}
