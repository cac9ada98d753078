// Option tables shared by the grammars (SPEC §21.1): which options a command knows, whether they
// take a value, bundled short options split, and unambiguous long-option abbreviations expanded
// the way git's parse-options does (an exact name wins; a unique prefix stands for its option).

/** How an option takes its value: never, always (next argument or `=`), or only with `=`. */
export type ValueKind = "none" | "required" | "optional";

export interface OptionSpec {
  long?: string;
  short?: string;
  value: ValueKind;
  /** Whether `--no-<long>` is accepted. */
  negatable?: boolean;
}

/** A long option as found: its full name, or why it could not be resolved. */
export type LongLookup =
  | { kind: "found"; name: string; spec: OptionSpec; negated: boolean }
  | { kind: "ambiguous"; candidates: string[] }
  | { kind: "unknown" };

/** Every long spelling of a table, `no-` forms included, mapped to its option. */
function longNames(
  table: readonly OptionSpec[],
): Map<string, { spec: OptionSpec; negated: boolean }> {
  const names = new Map<string, { spec: OptionSpec; negated: boolean }>();
  for (const spec of table) {
    if (spec.long === undefined) continue;
    names.set(spec.long, { spec, negated: false });
    if (spec.negatable) names.set(`no-${spec.long}`, { spec, negated: true });
  }
  return names;
}

/** Resolves `name` (without the leading `--` and any `=value`) against the table. */
export function lookupLong(table: readonly OptionSpec[], name: string): LongLookup {
  const names = longNames(table);
  const exact = names.get(name);
  if (exact) return { kind: "found", name, ...exact };
  const candidates = [...names.keys()].filter((full) => full.startsWith(name));
  if (candidates.length === 1) {
    const full = candidates[0]!;
    return { kind: "found", name: full, ...names.get(full)! };
  }
  return candidates.length > 1 ? { kind: "ambiguous", candidates } : { kind: "unknown" };
}

/** The option of a short letter, if the table has it. */
export function lookupShort(table: readonly OptionSpec[], letter: string): OptionSpec | undefined {
  return table.find((spec) => spec.short === letter);
}
