// Script candidates and their interpreters: `#!/usr/bin/env node` needs node on the child's PATH,
// so `init` puts the interpreter's directory into the manifest's searchPath (SPEC §13).

import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";

/** Bytes read from the start of a file; Linux reads at most 256 bytes of a `#!` line. */
const SHEBANG_READ_BYTES = 256;

/** What a script's `#!` line asks for. */
export type Interpreter =
  /** `#!/usr/bin/env [-S] [NAME=value…] name …`: a name looked up on PATH. */
  | { kind: "name"; name: string }
  /** `#!/absolute/interpreter …`. */
  | { kind: "path"; path: string };

/** The first bytes of a file, or undefined when it cannot be read. */
function fileStart(file: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, "r");
    const buffer = Buffer.alloc(SHEBANG_READ_BYTES);
    const read = readSync(descriptor, buffer, 0, SHEBANG_READ_BYTES, 0);
    return buffer.subarray(0, read).toString("latin1");
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The program named after `env` and its options, if any. */
function envTarget(words: readonly string[]): string | undefined {
  for (const word of words) {
    if (word.startsWith("-")) continue;
    if (word.includes("=")) continue;
    return word;
  }
  return undefined;
}

/** The interpreter a script's `#!` line names, or undefined for a binary or a plain file. */
export function readInterpreter(file: string): Interpreter | undefined {
  const start = fileStart(file);
  if (start === undefined || !start.startsWith("#!")) return undefined;
  const line = start.slice(2).split(/\r?\n/, 1)[0] ?? "";
  const [interpreter, ...rest] = line.trim().split(/\s+/);
  if (interpreter === undefined || !path.isAbsolute(interpreter)) return undefined;
  if (path.basename(interpreter) !== "env") return { kind: "path", path: interpreter };
  // `env -S "node --flag"` splits its argument: the words after -S are env's words too.
  const words = rest.flatMap((word) => word.split(/\s+/));
  const name = envTarget(words);
  return name === undefined ? undefined : { kind: "name", name };
}
