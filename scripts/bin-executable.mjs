// Build step: makes the bin (dist/cli/main.js) executable, so that a plain symlink to it, or a
// direct run, works without npm's bin linking setting the mode (SPEC §13). Runs last in `build`,
// after every step that rewrites the file.

import { chmodSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Owner read/write/execute, group and others read/execute (what npm gives an installed bin). */
const BIN_MODE = 0o755;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(repo, "dist/cli/main.js");

if (!statSync(bin).isFile()) throw new Error(`expected a built file at ${bin}, got something else`);
chmodSync(bin, BIN_MODE);
