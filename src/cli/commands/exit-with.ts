// The callback every management command ends through (kept apart from index.ts, which imports
// each command, so the commands do not import their own registry back).

/** Sets the exit code the CLI ends with once the action finished. */
export type ExitWith = (code: number) => void;
