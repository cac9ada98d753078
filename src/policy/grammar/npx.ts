// npx (SPEC §21.1): its own options stop at the first positional argument, which is the command
// it starts; `npx <cmd> args` is ruled as `<cmd> args`, under <cmd>'s grammar too. `-c`/`--call`
// is a shell line and is decided by the strictest rule.

import { innerCommand, isShellOption, withInner, type InnerReader } from "./package-manager.js";
import { NPM_COMMANDS } from "./npm-commands.js";
import type { CanonicalCall } from "./types.js";

/** The canonical reading of `npx <args>`. */
export function canonicalNpx(args: readonly string[], readInner: InnerReader): CanonicalCall {
  const inner = innerCommand(NPM_COMMANDS, args);
  const own = args.slice(0, args.length - inner.length);
  if (own.some((arg) => isShellOption(NPM_COMMANDS, arg))) {
    return {
      readings: [[...inner]],
      strictest: { why: "npx -c/--call runs a shell line, which no argument rule can read" },
    };
  }
  return withInner({ readings: [] }, inner, readInner);
}
