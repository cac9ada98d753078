// `git push` (SPEC §21.1): options resolved against push's own table (bundles split, unambiguous
// abbreviations expanded), every spelling of a force made `--force`, and each refspec replaced in
// place by the short name of the branch or tag it updates. A push whose destinations come from
// config (no refspec, --all, --mirror, --tags, a wildcard, HEAD) is decided by the strictest rule
// that names push.

import { lookupLong, lookupShort, type OptionSpec } from "./option-table.js";
import type { CanonicalCall } from "./types.js";

const PUSH = "push";
const FORCE = "--force";

/** git push's options (builtin/push.c); every one is negatable unless marked. */
const PUSH_OPTIONS: readonly OptionSpec[] = [
  { long: "verbose", short: "v", value: "none", negatable: true },
  { long: "quiet", short: "q", value: "none", negatable: true },
  { long: "repo", value: "required", negatable: true },
  { long: "all", value: "none", negatable: true },
  { long: "branches", value: "none", negatable: true },
  { long: "mirror", value: "none", negatable: true },
  { long: "delete", short: "d", value: "none", negatable: true },
  { long: "tags", value: "none", negatable: true },
  { long: "dry-run", short: "n", value: "none", negatable: true },
  { long: "porcelain", value: "none", negatable: true },
  { long: "force", short: "f", value: "none", negatable: true },
  { long: "force-with-lease", value: "optional", negatable: true },
  { long: "force-if-includes", value: "none", negatable: true },
  { long: "recurse-submodules", value: "required", negatable: true },
  { long: "thin", value: "none", negatable: true },
  { long: "receive-pack", value: "required", negatable: true },
  { long: "exec", value: "required", negatable: true },
  { long: "set-upstream", short: "u", value: "none", negatable: true },
  { long: "progress", value: "none", negatable: true },
  { long: "prune", value: "none", negatable: true },
  { long: "verify", value: "none", negatable: true },
  { long: "follow-tags", value: "none", negatable: true },
  { long: "signed", value: "optional", negatable: true },
  { long: "atomic", value: "none", negatable: true },
  { long: "push-option", short: "o", value: "required", negatable: true },
  { long: "ipv4", short: "4", value: "none" },
  { long: "ipv6", short: "6", value: "none" },
];

/** Spellings of a force (a `+` refspec is the other one). */
const FORCING = new Set(["force", "force-with-lease", "force-if-includes"]);
/** Pushes whose destinations are not in the argv. */
const FROM_CONFIG = new Set(["all", "branches", "mirror", "tags"]);
/** Options that name a program git starts (for a local remote, on this machine). */
const RUNS_PROGRAM = new Set(["receive-pack", "exec"]);

const REF_PREFIXES = ["refs/heads/", "refs/tags/", "heads/", "tags/"];

class Unreadable extends Error {
  constructor(
    readonly why: string,
    readonly wholeProgram = false,
  ) {
    super(why);
  }
}

/** The short name of the ref a refspec updates, and whether it forces. */
export function refspecDestination(refspec: string): { name: string; forced: boolean } {
  const forced = refspec.startsWith("+");
  const spec = forced ? refspec.slice(1) : refspec;
  if (spec.includes("*")) throw new Unreadable(`refspec ${JSON.stringify(refspec)} is a wildcard`);
  const colon = spec.lastIndexOf(":");
  const destination = colon < 0 ? spec : spec.slice(colon + 1);
  const implicit = colon < 0 && (destination === "HEAD" || destination === "@");
  if (destination === "" || implicit || destination.includes("@{")) {
    throw new Unreadable(
      `refspec ${JSON.stringify(refspec)} updates a branch that config or the checkout chooses`,
    );
  }
  const prefix = REF_PREFIXES.find((candidate) => destination.startsWith(candidate));
  return { name: prefix ? destination.slice(prefix.length) : destination, forced };
}

interface PushState {
  out: string[];
  positionals: string[];
  forced: boolean;
}

/** Adds one resolved option to the canonical argv; consumes a separate value when it takes one. */
function addOption(
  state: PushState,
  name: string,
  spec: OptionSpec,
  negated: boolean,
  inline: string | undefined,
  takeNext: () => string,
): void {
  if (!negated && RUNS_PROGRAM.has(name)) {
    throw new Unreadable(`git push --${name} starts another program`, true);
  }
  if (!negated && FROM_CONFIG.has(name)) {
    throw new Unreadable(`git push --${name} pushes refs that are not in the arguments`);
  }
  if (!negated && FORCING.has(name)) {
    state.forced = true;
    state.out.push(FORCE);
    return;
  }
  const spelled = negated ? `--no-${name}` : `--${name}`;
  if (inline !== undefined) state.out.push(`${spelled}=${inline}`);
  else if (spec.value === "required" && !negated) state.out.push(spelled, takeNext());
  else state.out.push(spelled);
}

function longOption(state: PushState, arg: string, takeNext: () => string): void {
  const body = arg.slice(2);
  const eq = body.indexOf("=");
  const written = eq < 0 ? body : body.slice(0, eq);
  const inline = eq < 0 ? undefined : body.slice(eq + 1);
  const found = lookupLong(PUSH_OPTIONS, written);
  if (found.kind !== "found") {
    throw new Unreadable(
      found.kind === "ambiguous"
        ? `git push --${written} is ambiguous (${found.candidates.map((c) => `--${c}`).join(", ")})`
        : `git push has no option --${written}`,
    );
  }
  addOption(state, found.spec.long!, found.spec, found.negated, inline, takeNext);
}

function shortBundle(state: PushState, arg: string, takeNext: () => string): void {
  for (let at = 1; at < arg.length; at += 1) {
    const letter = arg[at]!;
    const spec = lookupShort(PUSH_OPTIONS, letter);
    if (!spec) throw new Unreadable(`git push has no option -${letter}`);
    if (spec.value === "required") {
      const rest = arg.slice(at + 1);
      addOption(state, spec.long!, spec, false, undefined, () => (rest !== "" ? rest : takeNext()));
      return;
    }
    addOption(state, spec.long!, spec, false, undefined, takeNext);
  }
}

/** The canonical reading of `git push <args>` (args after the subcommand). */
export function canonicalPush(args: readonly string[]): CanonicalCall {
  const state: PushState = { out: [], positionals: [], forced: false };
  let at = 0;
  const takeNext = (): string => {
    at += 1;
    if (at >= args.length) throw new Unreadable("a git push option has no value");
    return args[at]!;
  };
  try {
    let options = true;
    for (; at < args.length; at += 1) {
      const arg = args[at]!;
      if (options && arg === "--") options = false;
      else if (options && arg.startsWith("--")) longOption(state, arg, takeNext);
      else if (options && arg.startsWith("-") && arg.length > 1) shortBundle(state, arg, takeNext);
      else {
        state.positionals.push(arg);
        state.out.push(state.positionals.length === 1 ? arg : refspecOf(state, arg));
      }
    }
    if (state.positionals.length < 2) {
      throw new Unreadable("git push without a refspec pushes what config chooses");
    }
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    const naming = error.wholeProgram ? {} : { naming: PUSH };
    return { readings: [[PUSH, ...state.out]], strictest: { ...naming, why: error.why } };
  }
  const forcedOnlyByRefspec = state.forced && !state.out.includes(FORCE);
  return { readings: [[PUSH, ...(forcedOnlyByRefspec ? [FORCE] : []), ...state.out]] };
}

function refspecOf(state: PushState, refspec: string): string {
  const destination = refspecDestination(refspec);
  if (destination.forced) state.forced = true;
  return destination.name;
}
