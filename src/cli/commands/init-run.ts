// `init`: writes a version 2 manifest for the automatic program set found on PATH, one that runs
// as written (bare names plus a searchPath), then prints the Codex and DSH snippets (SPEC §13).

import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CommandError } from "../../errors.js";
import { renderHostConfig } from "../../hosts/index.js";
import { validateManifest } from "../../manifest/validate.js";
import { automaticPolicyInput } from "../../programs/automatic.js";
import { logLine } from "../log.js";
import type { CommonOptions } from "../options.js";
import { discoverPrograms, searchPathFor, type DiscoveredProgram } from "./init-discovery.js";
import { serverLaunch } from "./launch.js";
import { openPrompt, requireTerminal } from "./prompt.js";
import { checkSnippetPaths, expandHome } from "./path-arguments.js";
import {
  createParentDirectories,
  manifestExists,
  manifestText,
  writeNewFile,
} from "./write-new-file.js";

/** Where init writes when neither PATH nor --manifest is given (relative to the cwd). */
export const DEFAULT_MANIFEST_FILE = "system-command-manifest.json";

/** The manifest version init writes. */
const INIT_MANIFEST_VERSION = 2;

/** The probe declared for every program: each of the automatic set answers `--version`. */
const VERSION_PROBE_ARGS = ["--version"];

/**
 * The §23 defaults init writes into the global layer: the common secret-name patterns are kept
 * from children, and agents never meet colour codes, a pager or a credential prompt.
 */
export const INIT_REMOVE_MATCHING: readonly string[] = [
  "*_TOKEN",
  "*_SECRET*",
  "*PASSWORD*",
  "AWS_*",
  "GITHUB_*",
];
export const INIT_SET: Readonly<Record<string, string>> = {
  NO_COLOR: "1",
  PAGER: "cat",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
};

/** The hosts whose snippets init prints (the rest: `print-config <host>`). */
const INIT_HOSTS = ["codex", "dsh"] as const;

const OVERWRITE_HINT = "pass --force to overwrite it, or give another path";

/** init's flags as commander parses them. */
export interface InitOptions extends CommonOptions {
  yes?: boolean;
  force?: boolean;
}

/** A program the manifest will register, and whether startup needs it. */
interface Choice {
  program: DiscoveredProgram;
  required: boolean;
}

/** Asks, per program, whether to register it and whether it is required. */
async function askChoices(found: readonly DiscoveredProgram[]): Promise<Choice[]> {
  const prompt = openPrompt();
  const choices: Choice[] = [];
  try {
    for (const program of found) {
      if (!(await prompt.ask(`Register ${program.name} (${program.foundPath})?`, true))) continue;
      const required = await prompt.ask(
        `Make ${program.name} required (the server will not start without it)?`,
        false,
      );
      choices.push({ program, required });
    }
  } finally {
    prompt.close();
  }
  return choices;
}

/** The manifest object: bare-name candidates, the searchPath they need, a --version probe each. */
export function initManifest(
  choices: readonly Choice[],
  pathDirs: readonly string[],
): Record<string, unknown> {
  const programs: Record<string, unknown> = {};
  const probes: Record<string, unknown> = {};
  for (const { program, required } of choices) {
    const policy = automaticPolicyInput(program.name);
    programs[program.name] = {
      candidates: [...program.candidates],
      required,
      ...(policy && { policy }),
    };
    probes[program.name] = { args: [...VERSION_PROBE_ARGS] };
  }
  const searchPath = searchPathFor(
    choices.map((choice) => choice.program),
    pathDirs,
  );
  const environment = { removeMatching: [...INIT_REMOVE_MATCHING], set: { ...INIT_SET } };
  return { version: INIT_MANIFEST_VERSION, searchPath, environment, programs, probes };
}

/** NO_PROGRAMS_REGISTERED: a manifest without programs would not start. */
function nothingToRegister(why: string): CommandError {
  return new CommandError(
    "NO_PROGRAMS_REGISTERED",
    `init writes a manifest only with at least one program, got none: ${why}`,
  );
}

/** Runs init; resolves to the exit code. */
export async function runInit(target: string | undefined, options: InitOptions): Promise<number> {
  const file = path.resolve(expandHome(target ?? options.manifest ?? DEFAULT_MANIFEST_FILE));
  if (options.yes !== true)
    requireTerminal("pass --yes to register every program found, all optional");
  if (options.force !== true && existsSync(file)) throw manifestExists(file, OVERWRITE_HINT);
  const discovery = discoverPrograms(process.env, process.platform, os.homedir());
  if (discovery.found.length === 0) {
    throw nothingToRegister(`none of git, node, npm, pnpm, yarn, bun, python, rg is on PATH`);
  }
  const choices =
    options.yes === true
      ? discovery.found.map((program) => ({ program, required: false }))
      : await askChoices(discovery.found);
  if (choices.length === 0) throw nothingToRegister("every program was declined");
  const manifest = initManifest(choices, discovery.pathDirs);
  validateManifest(manifest);
  const roots = snippetRoots(options.root ?? []);
  await createParentDirectories(file);
  await writeNewFile(file, manifestText(manifest), {
    overwrite: options.force === true,
    howToOverwrite: OVERWRITE_HINT,
  });
  reportWritten(file, choices, discovery.missing, roots);
  const launch = serverLaunch({ manifest: file, roots }, []);
  const snippets = INIT_HOSTS.map((host) => renderHostConfig(host, launch));
  process.stdout.write(snippets.join("\n"));
  return 0;
}

/** The Roots of the printed snippets: the given ones, else the current directory (warned about). */
function snippetRoots(given: readonly string[]): string[] {
  if (given.length > 0) return checkSnippetPaths(undefined, given).roots;
  const cwd = process.cwd();
  logLine(
    `warning: no --root given, so the snippets use the current directory ${cwd} as the Root; ` +
      `pass --root <project dir> (repeatable) for the directories agents work in`,
  );
  return [cwd];
}

/** What was written and what to do next, on stderr (stdout carries only the snippets). */
function reportWritten(
  file: string,
  choices: readonly Choice[],
  missing: readonly string[],
  roots: readonly string[],
): void {
  const names = choices.map(({ program, required }) =>
    required ? `${program.name} (required)` : program.name,
  );
  logLine(`wrote ${file}: ${names.join(", ")}`);
  if (missing.length > 0) logLine(`not found on PATH, not registered: ${missing.join(", ")}`);
  const rootFlags = roots.map((root) => `--root ${path.resolve(root)}`).join(" ");
  logLine(`check it with: system-command-mcp doctor --manifest ${file} ${rootFlags}`);
}
