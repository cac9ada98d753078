// Whether bubblewrap runs on this machine, for the confinement tests (SPEC §20). Where it cannot
// run they skip with the reason; in CI (CI=true) a skip is a failure: bwrap must work there.

import { spawnSync } from "node:child_process";
import { it } from "vitest";

/** The reason bwrap cannot run here, or undefined when a trivial confined run succeeds. */
function bwrapUnavailableReason(): string | undefined {
  if (process.platform !== "linux") return `confinement tests need Linux, not ${process.platform}`;
  const run = spawnSync(
    "bwrap",
    [
      "--die-with-parent",
      "--unshare-pid",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--",
      "/bin/true",
    ],
    { encoding: "utf8", timeout: 20_000 },
  );
  if (run.error) return `bwrap could not be started (${(run.error as NodeJS.ErrnoException).code})`;
  if (run.status !== 0) return `bwrap exited ${run.status}: ${run.stderr.trim().slice(0, 200)}`;
  return undefined;
}

/** Undefined when bwrap works; else why not. */
export const BWRAP_UNAVAILABLE = bwrapUnavailableReason();

/** True when the confinement tests must run (bwrap works) — and a test that fails in CI otherwise. */
export function requireBwrapInCi(): boolean {
  if (BWRAP_UNAVAILABLE === undefined) return true;
  if (process.env.CI === "true") {
    it("bubblewrap works (required in CI)", () => {
      throw new Error(`CI=true but confinement tests cannot run: ${BWRAP_UNAVAILABLE}`);
    });
  } else {
    it.skip(`confinement tests skipped: ${BWRAP_UNAVAILABLE}`, () => {});
  }
  return false;
}
