// The grammars the rules know (SPEC §21.1), chosen by logical name or executable basename. Adding
// a program is one module with its table and one line here.

import path from "node:path";
import { canonicalGit } from "./git.js";
import { NPM_COMMANDS } from "./npm-commands.js";
import { canonicalNpx } from "./npx.js";
import { canonicalPackageManager, type CommandTable } from "./package-manager.js";
import { PNPM_COMMANDS, YARN_COMMANDS } from "./pnpm-yarn-commands.js";
import type { CanonicalCall, Grammar } from "./types.js";

export type { CanonicalCall, Grammar, StrictestDecision } from "./types.js";

/** How deep inner commands (`npx npm exec -- npm publish`) are followed before giving up. */
const MAX_INNER_DEPTH = 4;

function packageManager(name: string, table: CommandTable, depth: number): Grammar {
  return {
    name,
    canonical: (args) => canonicalPackageManager(name, table, args, inner(depth)),
  };
}

function grammarAt(name: string, depth: number): Grammar | undefined {
  switch (name) {
    case "git":
      return { name, canonical: canonicalGit };
    case "npm":
      return packageManager(name, NPM_COMMANDS, depth);
    case "pnpm":
      return packageManager(name, PNPM_COMMANDS, depth);
    case "yarn":
      return packageManager(name, YARN_COMMANDS, depth);
    case "npx":
      return { name, canonical: (args) => canonicalNpx(args, inner(depth)) };
    default:
      return undefined;
  }
}

/** Reads an inner command under its grammar, one level deeper. */
function inner(depth: number) {
  return (command: string, args: readonly string[]): CanonicalCall | undefined => {
    const grammar = grammarAt(programNameOf(command), depth + 1);
    if (grammar && depth + 1 > MAX_INNER_DEPTH) {
      return { readings: [], strictest: { why: "commands nested too deeply to read exactly" } };
    }
    return grammar?.canonical(args);
  };
}

/** Executable file names that are one of the known programs (npm's bins are JS files). */
const FILE_NAMES: Record<string, string> = {
  "npm-cli.js": "npm",
  "npx-cli.js": "npx",
  "pnpm.cjs": "pnpm",
  "pnpm.js": "pnpm",
  "yarn.js": "yarn",
  "yarn.cjs": "yarn",
};

/** The program a path or a name stands for: its basename without a Windows extension. */
export function programNameOf(file: string): string {
  const base = path.basename(file.replaceAll("\\", "/"));
  if (FILE_NAMES[base] !== undefined) return FILE_NAMES[base]!;
  return base.replace(/\.(exe|cmd|bat|com|ps1)$/i, "");
}

/** The grammar for a program known by any of these names (logical name first), if any. */
export function grammarFor(names: readonly string[]): Grammar | undefined {
  for (const name of names) {
    const grammar = grammarAt(programNameOf(name), 0);
    if (grammar) return grammar;
  }
  return undefined;
}

/** The names a registered program is known by: its logical name, then its executable's names. */
export function grammarOfProgram(program: {
  name: string;
  declaredCandidate: string;
  spawnPath: string;
  executable: string;
}): Grammar | undefined {
  return grammarFor([
    program.name,
    program.declaredCandidate,
    program.spawnPath,
    program.executable,
  ]);
}
