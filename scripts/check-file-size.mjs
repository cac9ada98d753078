// The file-size check of `npm run lint`: no source file over MAX_LINES lines (small files with
// one concern; a file that grows past the limit is split along a seam, not trimmed).
//
// Usage: node scripts/check-file-size.mjs [sourceDir]   (default: src)
// Exits 1 naming every .ts file under the directory that is longer, with its line count.

import { readFileSync } from "node:fs";
import path from "node:path";
import { listSources, rel } from "./source-files.mjs";

/** The most lines a source file may have. */
const MAX_LINES = 300;

const sourceDir = path.resolve(process.argv[2] ?? "src");
const problems = [];
for (const file of listSources(sourceDir)) {
  const lines = lineCount(readFileSync(file, "utf8"));
  if (lines > MAX_LINES) {
    problems.push(`${rel(file)} has ${lines} lines, expected at most ${MAX_LINES} (split it)`);
  }
}

if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`check-file-size: ${problem}\n`);
  process.stderr.write(
    `check-file-size: ${problems.length} file(s) too long in ${rel(sourceDir)}\n`,
  );
  process.exit(1);
}

/** Lines as an editor numbers them: a final newline does not start another line. */
function lineCount(text) {
  if (text === "") return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}
