// The few settings of a git config file that decide what git runs or reads later (SPEC §20.1
// item 1): `include.path` / `includeIf.*.path` (more config) and `core.hooksPath` (where hooks
// are). A small reader of git's syntax; anything it cannot read is skipped, never guessed.

import { readFileSync } from "node:fs";
import path from "node:path";
import { withoutStackTraces } from "../without-stack-traces.js";

/** What one config file says about includes and hooks. */
export interface GitConfigFacts {
  /** Absolute paths of the files it includes. */
  includes: string[];
  /** The value of `core.hooksPath` as written (the last one wins), if any. */
  hooksPath?: string;
}

/** Largest config file read (git's own are a few KiB). */
const MAX_CONFIG_BYTES = 1 << 20;

/** A value without its surrounding quotes and trailing comment. */
function unquote(raw: string): string {
  let value = "";
  let quoted = false;
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index]!;
    if (char === '"') quoted = !quoted;
    else if (char === "\\" && index + 1 < raw.length) value += raw[++index];
    else if (!quoted && (char === "#" || char === ";")) break;
    else value += char;
  }
  return value.trim();
}

/** Expands `~/` with `home`; a relative path is relative to `base`. */
export function resolveConfigPath(value: string, base: string, home: string): string {
  if (value === "~" || value.startsWith("~/")) return path.join(home, value.slice(1));
  return path.resolve(base, value);
}

/** Reads the include and hook settings of one config file; empty when it cannot be read. */
export function readGitConfig(file: string, home: string): GitConfigFacts {
  const facts: GitConfigFacts = { includes: [] };
  let text: string;
  try {
    text = withoutStackTraces(() => readFileSync(file, "utf8"));
  } catch {
    return facts;
  }
  if (text.length > MAX_CONFIG_BYTES) text = text.slice(0, MAX_CONFIG_BYTES);
  let section = "";
  for (const rawLine of text.split("\n")) {
    let line = rawLine.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      line = line.slice(header[0].length).trim();
      if (line === "") continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const key = entry[1]!.toLowerCase();
    const value = unquote(entry[2]!);
    if (value === "") continue;
    if ((section === "include" || section === "includeif") && key === "path") {
      facts.includes.push(resolveConfigPath(value, path.dirname(file), home));
    } else if (section === "core" && key === "hookspath") {
      facts.hooksPath = value;
    }
  }
  return facts;
}

/** The user's global git config files (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`). */
export function globalGitConfigFiles(home: string, xdgConfigHome: string | undefined): string[] {
  const xdg =
    xdgConfigHome && path.isAbsolute(xdgConfigHome) ? xdgConfigHome : path.join(home, ".config");
  return [path.join(home, ".gitconfig"), path.join(xdg, "git", "config")];
}
