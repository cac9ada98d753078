// Reading an install guide as a program: its shell blocks, in order, with the role each one's
// info string gives (```sh install), and a byte-for-byte picture of a directory tree.

import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";

/** What a shell block of a guide is for. */
export type BlockRole = "names" | "install" | "acceptance" | "rollback";

const ROLES: readonly BlockRole[] = ["names", "install", "acceptance", "rollback"];

/** One fenced shell block: its role, its text and the line its fence opens on. */
export interface GuideBlock {
  role: BlockRole;
  text: string;
  line: number;
}

/** What to do with a shell block that names no role: a guide throws, a README may skip it. */
export interface ShellBlockOptions {
  untagged?: "throw" | "skip";
}

/**
 * Every ```sh / ```bash block of a Markdown text; a shell block without a known role throws
 * (or, with `untagged: "skip"`, is left out when it names no role at all).
 */
export function shellBlocks(markdown: string, options: ShellBlockOptions = {}): GuideBlock[] {
  const blocks: GuideBlock[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[index]!);
    if (open === null) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith("```"));
    if (end === -1) throw new Error(`unclosed code fence at line ${index + 1}`);
    const language = open[1]!;
    if (language === "sh" || language === "bash") {
      const role = open[2]!.trim() as BlockRole;
      if ((role as string) === "" && options.untagged === "skip") {
        index = end;
        continue;
      }
      if (!ROLES.includes(role)) {
        throw new Error(
          `shell block at line ${index + 1} has role "${role}"; expected one of ${ROLES.join(", ")}`,
        );
      }
      blocks.push({ role, text: lines.slice(index + 1, end).join("\n"), line: index + 1 });
    }
    index = end;
  }
  return blocks;
}

/** One entry of a tree picture: kind, permission bits and content (hash) or link target. */
export type TreeEntry =
  | { kind: "dir"; mode: number }
  | { kind: "file"; mode: number; sha256: string }
  | { kind: "link"; target: string };

/** Every path below `root` (relative) and what is there; modification times are ignored. */
export function treePicture(root: string): Record<string, TreeEntry> {
  const picture: Record<string, TreeEntry> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      const info = lstatSync(full);
      if (info.isSymbolicLink()) {
        picture[relative] = { kind: "link", target: readlinkSync(full) };
      } else if (info.isDirectory()) {
        picture[relative] = { kind: "dir", mode: info.mode & 0o7777 };
        walk(full);
      } else {
        const sha256 = createHash("sha256").update(readFileSync(full)).digest("hex");
        picture[relative] = { kind: "file", mode: info.mode & 0o7777, sha256 };
      }
    }
  };
  walk(root);
  return picture;
}
