// The command line a host starts the server with: absolute node, the real entry script, `serve`
// and the flags given to print-config or init, paths made absolute (SPEC §13, HOSTS.md).

import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { packagePath } from "../../package-root.js";
import type { Command } from "commander";
import type { ServerLaunch } from "../../hosts/index.js";
import { expandHome } from "./path-arguments.js";

/** Flags that are not runtime flags: handled on their own, or not meant for the server. */
const NON_RUNTIME_FLAGS = new Set(["--manifest", "--root", "--yes", "--force", "--help"]);

/** Runtime flags whose value is a path: made absolute, since hosts start the server anywhere. */
const PATH_FLAGS = new Set(["--artifact-dir", "--audit-log"]);

/**
 * The real path of the CLI entry script that is running (the bundle when installed, or
 * dist/cli/main.js), through npm's bin symlink or any other.
 */
export function entryScriptPath(): string {
  const script = process.argv[1];
  if (script && existsSync(script)) return realpathSync(script);
  return packagePath("dist", "cli", "main.js");
}

/** What a launch carries besides the runtime flags. */
export interface LaunchInput {
  manifest?: string;
  roots: readonly string[];
}

/** `--flag value` pairs for every runtime flag the command was given, in declaration order. */
export function givenRuntimeFlags(command: Command): string[] {
  const values = command.opts<Record<string, unknown>>();
  const flags: string[] = [];
  for (const option of command.options) {
    const long = option.long;
    if (long === undefined || NON_RUNTIME_FLAGS.has(long)) continue;
    const value = values[option.attributeName()];
    if (value === undefined) continue;
    const text = String(value);
    flags.push(long, PATH_FLAGS.has(long) ? path.resolve(expandHome(text)) : text);
  }
  return flags;
}

/** The launch of `serve` with an absolute manifest, absolute Roots and the given runtime flags. */
export function serverLaunch(input: LaunchInput, runtimeFlags: readonly string[]): ServerLaunch {
  const args = [entryScriptPath(), "serve"];
  if (input.manifest !== undefined) args.push("--manifest", path.resolve(input.manifest));
  for (const root of input.roots) args.push("--root", path.resolve(root));
  args.push(...runtimeFlags);
  return { command: process.execPath, args };
}
