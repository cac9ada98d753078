// The layering check of `npm run lint`: dependencies point one way (cli/mcp → runtime → stages),
// no module imports itself back through a chain (an import cycle, type-only imports included), and
// no folder does either (a folder cycle: a file of output/ imports artifacts/ while a file of
// artifacts/ imports output/, even when the files involved form no cycle of their own).
//
// Usage: node scripts/check-imports.mjs [sourceDir]   (default: src)
// Exits 1 listing every offending import and cycle. Import specifiers come from TypeScript's own
// pre-processor (static, type-only, re-exports and dynamic `import()`), so no extra dependency.

import { readFileSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { listSources, rel } from "./source-files.mjs";

/** The adapters, then the runtime; every other top-level folder or file under src/ is a stage. */
const ADAPTERS = ["cli", "mcp"];
const RUNTIME = "runtime";

/** What each layer may not import (by top-level folder under the source dir). */
const FORBIDDEN = {
  stage: [RUNTIME, ...ADAPTERS],
  [RUNTIME]: ADAPTERS,
  mcp: ["cli"],
  cli: [],
};

const sourceDir = path.resolve(process.argv[2] ?? "src");
const files = listSources(sourceDir).filter((file) => !file.endsWith(".d.ts"));
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const problems = [...layerViolations(graph), ...cycles(graph), ...folderCycles(graph)];

if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`check-imports: ${problem}\n`);
  process.stderr.write(`check-imports: ${problems.length} problem(s) in ${rel(sourceDir)}\n`);
  process.exit(1);
}

/** The source files a file imports (relative specifiers only; packages are not layers). */
function importsOf(file) {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const targets = new Set();
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const target = resolveSpecifier(path.dirname(file), fileName);
    if (target) targets.add(target);
  }
  return [...targets];
}

/** `./x.js` → `./x.ts` (NodeNext style), or a directory's index.ts. */
function resolveSpecifier(fromDir, specifier) {
  const base = path.resolve(fromDir, specifier);
  const candidates = [base.replace(/\.js$/, ".ts"), `${base}.ts`, path.join(base, "index.ts")];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** The layer a file belongs to: its top-level folder, or "stage" for stages and shared files. */
function layerOf(file) {
  const [top, ...rest] = path.relative(sourceDir, file).split(path.sep);
  if (rest.length === 0) return { layer: "stage", folder: top };
  if (top === RUNTIME || ADAPTERS.includes(top)) return { layer: top, folder: top };
  return { layer: "stage", folder: top };
}

/** Imports that point the wrong way. */
function* layerViolations(graph) {
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (FORBIDDEN[from.layer].includes(to.folder)) {
        const what = from.layer === "stage" ? `a stage (${from.folder}/)` : `${from.folder}/`;
        yield (
          `${rel(file)} imports ${rel(target)}: ${what} must not import ${to.folder}/ ` +
          `(dependencies point cli/mcp → runtime → stages)`
        );
      }
    }
  }
}

/** The folder a file belongs to (its top-level folder under the source dir; a top-level file is its own). */
function folderOf(file) {
  return path.relative(sourceDir, file).split(path.sep)[0];
}

/** Folder cycles: the import graph collapsed to top-level folders, one report per cycle. */
function* folderCycles(graph) {
  const folders = new Map();
  const evidence = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from) continue;
      folders.get(from).add(to);
      const key = `${from}→${to}`;
      if (!evidence.has(key)) evidence.set(key, `${rel(file)} → ${rel(target)}`);
    }
  }
  const folderGraph = new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
  for (const component of stronglyConnected(folderGraph)) {
    const members = new Set(component);
    const edges = [...evidence]
      .filter(([key]) => {
        const [from, to] = key.split("→");
        return members.has(from) && members.has(to);
      })
      .map(([, example]) => example)
      .sort();
    yield (
      `folder cycle: ${component.join(" ↔ ")} (${edges.join("; ")}) — ` +
      `move the shared part (often a type) into the folder that owns it`
    );
  }
}

/** Import cycles, one report per strongly connected component (Tarjan). */
function* cycles(graph) {
  for (const component of stronglyConnected(graph)) {
    yield `import cycle: ${component.map(rel).join(" ↔ ")} (move the shared part into its own module)`;
  }
}

/** The strongly connected components of a graph with a cycle (Tarjan), members sorted. */
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) components.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}
