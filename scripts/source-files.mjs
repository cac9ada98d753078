// What the lint's checks (check-imports.mjs, check-file-size.mjs) share: the listing of a source
// tree and how a path is shown in a report.

import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Every .ts file under `dir` (declaration files too), sorted so reports are stable. */
export function listSources(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listSources(full));
    else if (name.endsWith(".ts")) out.push(full);
  }
  return out;
}

/** A path as a report shows it: relative to the working directory. */
export function rel(file) {
  return path.relative(process.cwd(), file) || ".";
}
