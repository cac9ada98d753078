// A mistyped command (`docter`): "did you mean doctor?" and a short usage naming the commands,
// instead of the whole option list (SPEC §13: UNKNOWN_COMMAND, exit 2).

import type { Command } from "commander";
import { CommandError } from "../errors.js";

/** The most edits (insert, delete, substitute, swap two neighbours) a suggestion may be away. */
const MAX_SUGGESTION_DISTANCE = 2;

/** Optimal-string-alignment distance: typos such as `docter`, `dcotor`, `exce` count 1. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The closest command name, when one is close enough to be what was meant. */
export function suggestCommand(given: string, names: readonly string[]): string | undefined {
  const word = given.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word, name);
    if (distance > MAX_SUGGESTION_DISTANCE || distance >= name.length) continue;
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

/** The UNKNOWN_COMMAND error for `given`, with a suggestion when there is one. */
export function unknownCommandError(given: string, program: Command): CommandError {
  const names = program.commands.map((command) => command.name());
  const suggestion = suggestCommand(given, names);
  const hint = suggestion === undefined ? "" : `; did you mean ${suggestion}?`;
  return new CommandError(
    "UNKNOWN_COMMAND",
    `expected one of the commands ${names.join(", ")}, got "${given}"${hint}`,
  );
}

/** Three lines instead of the full --help. */
export function shortUsage(program: Command): string {
  const name = program.name();
  return [
    `Usage: ${name} <command> [options]`,
    `Commands: ${program.commands.map((command) => command.name()).join(", ")}`,
    `Run "${name} --help" or "${name} <command> --help" for the options.`,
  ].join("\n");
}
