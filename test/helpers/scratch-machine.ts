// A scratch machine for running documentation blocks as written (SPEC §14): a bin directory with
// exactly the tools a fresh machine with Node ≥ 20 has (node, npm, git, bash, coreutils), and the
// environment of a shell in a scratch HOME. npm's download cache is the machine's, offline first.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";

/** The programs the scratch machine has: Node, npm, git, bash and coreutils. */
export const MACHINE_TOOLS = [
  "node",
  "npm",
  "npx",
  "git",
  "bash",
  "sh",
  "env",
  "cat",
  "cp",
  "mv",
  "rm",
  "rmdir",
  "ln",
  "mkdir",
  "grep",
  "sort",
  "dirname",
  "basename",
  "printf",
  "test",
  "readlink",
  "chmod",
  "uname",
  "sed",
  "head",
  "tail",
  "tr",
  "ls",
  "wc",
  "id",
  "true",
  "false",
  "tar",
  "gzip",
];

/** The file `name` names on this process's PATH. */
export function onPath(name: string): string | undefined {
  for (const entry of (process.env.PATH ?? "").split(path.delimiter)) {
    if (entry !== "" && existsSync(path.join(entry, name))) return path.join(entry, name);
  }
  return undefined;
}

/** Creates `dir` holding a link to each machine tool found here; returns `dir`. */
export function makeToolsDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of MACHINE_TOOLS) {
    const found = onPath(tool);
    if (found !== undefined) symlinkSync(realpathSync(found), path.join(dir, tool));
  }
  return dir;
}

/** The environment of a login shell in `home` whose PATH is `pathDirs`. */
export function scratchEnv(
  home: string,
  pathDirs: readonly string[],
  tmp: string,
): Record<string, string> {
  return {
    HOME: home,
    PATH: pathDirs.join(path.delimiter),
    USER: process.env.USER ?? "root",
    LOGNAME: process.env.LOGNAME ?? "root",
    SHELL: path.join(pathDirs.at(-1)!, "bash"),
    TERM: "dumb",
    LANG: "C.UTF-8",
    TMPDIR: tmp,
    // npm's own download cache is the machine's (outside this HOME, as for any npm user).
    npm_config_cache: spawnSync("npm", ["config", "get", "cache"], {
      encoding: "utf8",
    }).stdout.trim(),
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
    ...(process.env.CI !== undefined && { CI: process.env.CI }),
  };
}
