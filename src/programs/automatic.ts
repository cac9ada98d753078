// Automatic Discovery Mode (SPEC §10): a fixed program set found on the inherited PATH, none required.

import { pathDirectoriesOf } from "../environment/path-list.js";
import { snapshotEnvironment, type StartupEnvironment } from "../environment/variables.js";
import { DirectoryListings } from "./directory-listings.js";
import { effectivePolicy } from "./policy.js";
import { registerProgram } from "./register-program.js";
import type { ProgramCatalog, ResolutionDetail } from "./catalog.js";
import type { RegisteredProgram } from "./types.js";

/** The automatic program set, in registration order; never a shell or PowerShell. */
export const AUTOMATIC_PROGRAMS: ReadonlyArray<{ name: string; candidates: readonly string[] }> = [
  { name: "git", candidates: ["git"] },
  { name: "node", candidates: ["node"] },
  { name: "npm", candidates: ["npm"] },
  { name: "npx", candidates: ["npx"] },
  { name: "pnpm", candidates: ["pnpm"] },
  { name: "yarn", candidates: ["yarn"] },
  { name: "bun", candidates: ["bun"] },
  { name: "python", candidates: ["python3", "python"] },
  { name: "ripgrep", candidates: ["rg"] },
];

/** Programs of the set that may run in the background (dev servers, watchers): automatic mode
 * and what `init` writes (§10). */
export const BACKGROUND_PROGRAMS: ReadonlySet<string> = new Set([
  "node",
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "bun",
  "python",
]);

/** The policy a program of the automatic set gets (`init` writes the same fields). */
export function automaticPolicyInput(name: string): { allowBackground: true } | undefined {
  return BACKGROUND_PROGRAMS.has(name) ? { allowBackground: true } : undefined;
}

/** The catalog of Automatic Discovery Mode: startup env as is, PATH without empty entries. */
export function buildAutomaticCatalog(options: {
  startupEnv: StartupEnvironment;
  platform: NodeJS.Platform;
  homeDir: string;
}): ProgramCatalog {
  const env = snapshotEnvironment(options.startupEnv);
  const globalPath = pathDirectoriesOf(env, options.platform);
  const programs = new Map<string, RegisteredProgram>();
  const details: ResolutionDetail[] = [];
  const listings = new DirectoryListings();
  for (const { name, candidates } of AUTOMATIC_PROGRAMS) {
    const spec = {
      name,
      candidates,
      required: false,
      policy: effectivePolicy(automaticPolicyInput(name)),
      env: { ...env },
      pathDirs: globalPath,
      pathDiffers: false,
    };
    const registration = registerProgram(spec, {
      platform: options.platform,
      homeDir: options.homeDir,
      listings,
    });
    details.push(registration.detail);
    if (registration.program !== undefined) programs.set(name, registration.program);
  }
  return {
    mode: "automatic-discovery",
    programs,
    globalPath,
    environmentNames: [],
    removedByPattern: [],
    globalEnv: env,
    probes: {},
    details,
  };
}
