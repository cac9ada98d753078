// git's grammar (SPEC §21.1): the global options before the subcommand that change only where git
// works are removed; any other one (every -c, --config-env, --exec-path, an unknown option) can
// change what the subcommand does, so the call is decided by the strictest rule. The subcommand's
// own arguments go to its grammar when there is one (push), else stay literal.

import { GIT_COMMANDS } from "./git-commands.js";
import { canonicalPush } from "./git-push.js";
import type { CanonicalCall, Grammar } from "./types.js";

/** Removed global options that take a value: as the next argument, or (long ones) after `=`. */
const WITH_VALUE = new Set(["-C", "--git-dir", "--work-tree", "--namespace"]);
const SEPARATE_ONLY = new Set(["-C"]);

/** Removed global options without a value. */
const FLAGS = new Set([
  "-p",
  "--paginate",
  "-P",
  "--no-pager",
  "--bare",
  "--no-replace-objects",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
]);

/** Options git itself turns into a subcommand (git.c: "--version" → version, "-h" → help). */
const AS_COMMAND: Record<string, string> = {
  "--version": "version",
  "-v": "version",
  "--help": "help",
  "-h": "help",
};

function strictest(why: string): CanonicalCall {
  return { readings: [], strictest: { why } };
}

/** The canonical reading of `git <args>`. */
export function canonicalGit(args: readonly string[]): CanonicalCall {
  let at = 0;
  while (at < args.length) {
    const arg = args[at]!;
    if (!arg.startsWith("-")) break;
    if (AS_COMMAND[arg] !== undefined) {
      return { readings: [[AS_COMMAND[arg]!, ...args.slice(at + 1)]] };
    }
    if (FLAGS.has(arg)) {
      at += 1;
      continue;
    }
    if (WITH_VALUE.has(arg)) {
      if (at + 1 >= args.length) return strictest(`git option ${arg} has no value`);
      at += 2;
      continue;
    }
    const name = arg.split("=", 1)[0]!;
    if (arg.includes("=") && WITH_VALUE.has(name) && !SEPARATE_ONLY.has(name)) {
      at += 1;
      continue;
    }
    return strictest(
      `git option ${JSON.stringify(name)} before the subcommand can change what git runs ` +
        "(config, aliases, another git-<command>)",
    );
  }
  const subcommand = args[at];
  if (subcommand === undefined) return { readings: [[]] };
  if (!GIT_COMMANDS.has(subcommand)) {
    return strictest(
      `${JSON.stringify(subcommand)} is not a git command, so it is an alias or another program`,
    );
  }
  const rest = args.slice(at + 1);
  if (subcommand === "push") return canonicalPush(rest);
  return { readings: [[subcommand, ...rest]] };
}

export const gitGrammar: Grammar = { name: "git", canonical: canonicalGit };
