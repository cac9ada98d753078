// Lint: comments and docs point at this repository's own documents. Fails (exit 1, one line per
// problem) on a section sign (U+00A7) in any tracked source, test, script or doc file — the
// specification those numbers belong to does not ship with the product — and on a reference to a
// `docs/` page, or a `#anchor` in it, that does not exist (in code as `docs/page.md#anchor`, in
// Markdown as a relative link).
//
//   node scripts/check-doc-refs.mjs [DIR]     (default: the repository this script is in)

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."),
);
/** Files read: sources, tests, scripts, benches, docs and the top-level guidance. */
const CHECKED = /\.(ts|mjs|cjs|js|md|json)$/;
/** Not ours to rewrite: lockfiles and the host CLIs' own files. */
const SKIPPED = /(^|\/)(package-lock\.json|node_modules\/)/;
/** The sign the specification's section numbers are written with. */
const SECTION_SIGN = "\u00a7";
const CODE_REF = /(?<![\w/.-])docs\/([\w/-]+\.md)(?:#([\w-]+))?/g;
const MD_LINK = /\]\((?!https?:|mailto:|#)([^)\s]+?\.md)(?:#([\w-]+))?\)/g;

/** Tracked files (git ls-files), or every file below `root` outside git. */
function listFiles() {
  try {
    return execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** GitHub's heading anchors of a Markdown file. */
const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) {
    const anchors = new Set();
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      if (!heading) continue;
      const slug = heading[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-");
      let unique = slug;
      for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
      anchors.add(unique);
    }
    anchorCache.set(file, anchors);
  }
  return anchorCache.get(file);
}

const problems = [];
function checkTarget(from, line, target, anchor, shown) {
  if (!existsSync(target)) {
    problems.push(`${from}:${line}: ${shown} does not exist`);
  } else if (anchor && !anchorsOf(target).has(anchor)) {
    problems.push(`${from}:${line}: ${shown}: no heading gives #${anchor}`);
  }
}

for (const file of listFiles()) {
  if (!CHECKED.test(file) || SKIPPED.test(file)) continue;
  const full = path.join(root, file);
  if (!existsSync(full)) continue;
  const lines = readFileSync(full, "utf8").split("\n");
  lines.forEach((text, index) => {
    const line = index + 1;
    if (text.includes(SECTION_SIGN)) {
      problems.push(`${file}:${line}: a section-sign reference; point at the docs/ page instead`);
    }
    for (const match of text.matchAll(CODE_REF)) {
      checkTarget(file, line, path.join(root, "docs", match[1]), match[2], match[0]);
    }
    if (file.endsWith(".md")) {
      for (const match of text.matchAll(MD_LINK)) {
        const target = path.resolve(path.dirname(full), match[1]);
        checkTarget(file, line, target, match[2], match[0]);
      }
    }
  });
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`check-doc-refs: ${problems.length} problem(s)`);
  process.exit(1);
}
