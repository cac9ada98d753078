// What `init` finds: the automatic program set on the current PATH, and every directory the
// programs and their script interpreters live in (SPEC §10, §13).

import path from "node:path";
import { pathDirectoriesOf } from "../../environment/path-list.js";
import { buildAutomaticCatalog } from "../../programs/automatic.js";
import { qualifyingExecutable, type ExecutableRules } from "../../programs/executable-file.js";
import { qualifyingExecutableRules } from "../../programs/program-rules.js";
import { readInterpreter } from "./shebang.js";

/** How many interpreters deep `init` follows scripts (a shim run by a script run by a binary…). */
const MAX_INTERPRETER_DEPTH = 4;

/** One program of the automatic set that was found. */
export interface DiscoveredProgram {
  name: string;
  /** The automatic set's bare-name candidates, in order. */
  candidates: string[];
  foundPath: string;
  realPath: string;
  /** The program's own directory, then those of its interpreters. */
  directories: string[];
}

/** The automatic set on this PATH. */
export interface Discovery {
  found: DiscoveredProgram[];
  /** Names of the automatic set that are not on PATH. */
  missing: string[];
  /** The inherited PATH, empty entries dropped. */
  pathDirs: string[];
}

/** The first qualifying executable called `name` on PATH. */
function findOnPath(
  name: string,
  pathDirs: readonly string[],
  rules: ExecutableRules,
): string | undefined {
  for (const directory of pathDirs) {
    if (!path.isAbsolute(directory)) continue;
    const found = qualifyingExecutable(path.join(directory, name), rules);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The directories of a script's interpreter chain (`#!/usr/bin/env node` → node's directory). */
function interpreterDirectories(
  script: string,
  pathDirs: readonly string[],
  rules: ExecutableRules,
): string[] {
  if (rules.platform === "win32") return [];
  const directories: string[] = [];
  let file = script;
  for (let depth = 0; depth < MAX_INTERPRETER_DEPTH; depth += 1) {
    const interpreter = readInterpreter(file);
    if (interpreter === undefined) break;
    const next =
      interpreter.kind === "path"
        ? interpreter.path
        : findOnPath(interpreter.name, pathDirs, rules);
    if (next === undefined) break;
    directories.push(path.dirname(next));
    file = next;
  }
  return directories;
}

/** Finds the automatic program set on the environment's PATH, nothing executed. */
export function discoverPrograms(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  homeDir: string,
): Discovery {
  const catalog = buildAutomaticCatalog({ startupEnv: env, platform, homeDir });
  const pathDirs = pathDirectoriesOf(env, platform);
  const rules = qualifyingExecutableRules(catalog.globalEnv, platform);
  const found: DiscoveredProgram[] = [];
  const missing: string[] = [];
  for (const detail of catalog.details) {
    if (detail.winner === undefined) {
      missing.push(detail.name);
      continue;
    }
    const { foundPath, realPath } = detail.winner;
    found.push({
      name: detail.name,
      candidates: [...detail.candidates],
      foundPath,
      realPath,
      directories: [path.dirname(foundPath), ...interpreterDirectories(foundPath, pathDirs, rules)],
    });
  }
  return { found, missing, pathDirs };
}

/**
 * The searchPath that makes the chosen programs resolve as they did on PATH: the directories they
 * need, in PATH order (so every bare name still finds the same file first), then any interpreter
 * directory that is not on PATH at all.
 */
export function searchPathFor(
  programs: readonly DiscoveredProgram[],
  pathDirs: readonly string[],
): string[] {
  const needed = new Set(
    programs.flatMap((program) => program.directories.map((d) => path.resolve(d))),
  );
  const ordered: string[] = [];
  for (const directory of pathDirs) {
    if (!path.isAbsolute(directory)) continue;
    const normalized = path.resolve(directory);
    if (needed.has(normalized) && !ordered.includes(normalized)) ordered.push(normalized);
  }
  for (const directory of needed) {
    if (!ordered.includes(directory)) ordered.push(directory);
  }
  return ordered;
}
