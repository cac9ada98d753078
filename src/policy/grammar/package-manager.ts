// The grammar of npm, pnpm and yarn (SPEC §21.1), one table each: options before the command are
// skipped, the command's alias (or, for npm, abbreviation) resolves to the command, and what an
// `exec`-like command starts is ruled as that command's argv too. A shell line (`exec -c`, yarn's
// `exec`) cannot be read as an argv, so such a call is decided by the strictest rule.

import { MAX_READINGS, type CanonicalCall } from "./types.js";

/** One package manager's commands, as its own source lists them. */
export interface CommandTable {
  commands: ReadonlySet<string>;
  aliases: Readonly<Record<string, string>>;
  /** npm: a unique prefix of a command or alias stands for it. */
  abbreviations: boolean;
  /** npm: `installTest` is `install-test`. */
  camelCase: boolean;
  /** Commands whose first positional argument is a program they start (exec, dlx). */
  execCommands: ReadonlySet<string>;
  /** Commands whose arguments are a shell line. */
  shellCommands?: ReadonlySet<string>;
  /** Options of an exec command that make it run a shell line. */
  shellOptions: readonly string[];
  /** Options known to take the next argument as their value. */
  valueOptions: ReadonlySet<string>;
}

/** Reads an inner command line (`<cmd> args`) under the grammar of `<cmd>`, if one is known. */
export type InnerReader = (command: string, args: readonly string[]) => CanonicalCall | undefined;

/** The command a word names in this table (the word itself when it names none). */
export function resolveCommand(table: CommandTable, written: string): string {
  let word = written;
  if (table.camelCase && /[A-Z]/.test(word)) {
    word = word.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  }
  if (table.commands.has(word)) return word;
  const alias = table.aliases[word];
  if (alias !== undefined) return alias;
  if (!table.abbreviations || word === "") return written;
  const names = [...table.commands, ...Object.keys(table.aliases)];
  const matching = names.filter((name) => name.startsWith(word));
  if (matching.length !== 1) return written;
  let resolved = matching[0]!;
  while (table.aliases[resolved] !== undefined) resolved = table.aliases[resolved]!;
  return resolved;
}

/**
 * Where the command may start: an option without `=` that is not known to take a value may be a
 * flag or a config key that takes the next word, so both are tried. Undefined: too many.
 */
export function commandStarts(table: CommandTable, args: readonly string[]): number[] | undefined {
  const starts = new Set<number>();
  const visit = (at: number): void => {
    if (starts.size > MAX_READINGS) return;
    const arg = args[at];
    if (arg === undefined) starts.add(at);
    else if (arg === "--") starts.add(at + 1);
    else if (!arg.startsWith("-") || arg.length === 1) starts.add(at);
    else if (arg.includes("=")) visit(at + 1);
    else if (table.valueOptions.has(arg)) visit(at + 2);
    else {
      visit(at + 1);
      visit(at + 2);
    }
  };
  visit(0);
  return starts.size > MAX_READINGS ? undefined : [...starts].sort((a, b) => a - b);
}

/** Whether an argument turns on one of the shell options (`-c`, `--call=…`). */
export function isShellOption(table: CommandTable, arg: string): boolean {
  return table.shellOptions.some((option) => arg === option || arg.startsWith(`${option}=`));
}

/** Adds what an inner command line reads as: its literal argv, and its own grammar's readings. */
export function withInner(
  call: CanonicalCall,
  inner: readonly string[],
  readInner: InnerReader,
): CanonicalCall {
  if (inner.length === 0) return call;
  const readings = [...call.readings, [...inner]];
  const nested = readInner(inner[0]!, inner.slice(1));
  if (!nested) return { ...call, readings };
  readings.push(...nested.readings);
  const strictest = call.strictest ?? nested.strictest;
  return strictest ? { readings, strictest } : { readings };
}

/** The program an exec command starts and its args: the first positional, or what follows `--`. */
export function innerCommand(table: CommandTable, args: readonly string[]): string[] {
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at]!;
    if (arg === "--") return args.slice(at + 1);
    if (!arg.startsWith("-") || arg.length === 1) return args.slice(at);
    if (!arg.includes("=") && table.valueOptions.has(arg)) at += 1;
  }
  return [];
}

/** The canonical reading of `<package manager> <args>` under its table. */
export function canonicalPackageManager(
  program: string,
  table: CommandTable,
  args: readonly string[],
  readInner: InnerReader,
): CanonicalCall {
  const starts = commandStarts(table, args);
  if (!starts) {
    return {
      readings: [],
      strictest: { why: `${program}: too many options before the command to read it exactly` },
    };
  }
  let call: CanonicalCall = { readings: [] };
  for (const start of starts) {
    const written = args[start];
    if (written === undefined) {
      call = { ...call, readings: [...call.readings, []] };
      continue;
    }
    const command = resolveCommand(table, written);
    const rest = args.slice(start + 1);
    call = { ...call, readings: [...call.readings, [command, ...rest]] };
    const beforeDashes = args.slice(0, args.includes("--") ? args.indexOf("--") : args.length);
    const shell =
      table.shellCommands?.has(command) === true ||
      (table.execCommands.has(command) && beforeDashes.some((arg) => isShellOption(table, arg)));
    if (shell) {
      call.strictest ??= {
        why: `${program} ${command} runs a shell line, which no argument rule can read`,
      };
    } else if (table.execCommands.has(command)) {
      call = withInner(call, innerCommand(table, rest), readInner);
    }
  }
  return call;
}
