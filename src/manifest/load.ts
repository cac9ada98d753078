// Reads a manifest file and parses its JSON (SPEC §5: MANIFEST_READ_FAILED, MANIFEST_JSON_INVALID).

import { readFileSync } from "node:fs";
import { CommandError, errnoCode } from "../errors.js";

/** `at position N` in V8's JSON.parse messages. */
const JSON_POSITION = /position (\d+)/;

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line}, column ${column}`;
}

/** Where a JSON.parse error happened, without quoting the file's content (it may hold secrets). */
function parseErrorLocation(error: unknown, text: string): string {
  const match = JSON_POSITION.exec(error instanceof Error ? error.message : "");
  if (match?.[1] !== undefined) return lineAndColumn(text, Number(match[1]));
  if (text.trim() === "") return "the file is empty";
  return "unexpected end of input";
}

/** Parses manifest text as JSON, or throws MANIFEST_JSON_INVALID naming the file and the position. */
export function parseManifestText(text: string, file: string): unknown {
  const withoutBom = text.startsWith("\uFEFF") ? text.slice(1) : text;
  try {
    return JSON.parse(withoutBom) as unknown;
  } catch (error) {
    const location = parseErrorLocation(error, withoutBom);
    throw new CommandError(
      "MANIFEST_JSON_INVALID",
      `manifest "${file}" is not valid JSON (${location}); expected one JSON object`,
    );
  }
}

/**
 * Reads and parses a manifest file. Read synchronously: it happens once, before anything else
 * runs, and a start that needs nothing else from fs/promises (`doctor`) then never loads it.
 */
export async function readManifestFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CommandError(
      "MANIFEST_READ_FAILED",
      `could not read manifest "${file}" (${errnoCode(error)}); expected a readable JSON file`,
    );
  }
  return parseManifestText(text, file);
}
