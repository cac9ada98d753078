// The compile-time check of results (mcp/server.ts ResultsMatchSchemas) bites: a tiny project that
// imports the real runtime types and the real schema-derived result types, and drifts one of them
// per line, must fail `tsc` with TS2344 on exactly the drifted lines, each naming the drifted
// field; the same check on the real types compiles.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/server.js";

const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
/** tsc on the tiny project takes a few seconds (it reads ~50 source files); bounded well above. */
const TSC_TIMEOUT_MS = 80_000;

interface Case {
  name: string;
  check: string;
  /** The messages the drift must produce; none for a case that must compile. */
  errors?: string[];
}

const CASES: Case[] = [
  {
    name: "the real execution results",
    check: `ResultDrift<CanonicalResult | RunningSnapshot, ExecutionReportResult, "exec">`,
  },
  {
    name: "the real environment report",
    check: `ResultDrift<EnvironmentReport, EnvironmentReportResult, "env">`,
  },
  {
    name: "the real pages and searches",
    check: `ResultDrift<OutputPage | GrepPage, OutputPageResult, "output">`,
  },
  {
    name: "a nested field the schema lacks",
    check:
      `ResultDrift<(Omit<CanonicalResult, "stdout"> & { stdout: StreamOutput & { extra: number } })` +
      ` | RunningSnapshot, ExecutionReportResult, "exec">`,
    errors: ["exec.stdout.extra: not in the output schema"],
  },
  {
    name: "an enum value the schema does not allow",
    check:
      `ResultDrift<Omit<EnvironmentReport, "mode"> & { mode: EnvironmentReport["mode"] | "legacy" },` +
      ` EnvironmentReportResult, "env">`,
    errors: ['env.mode: the output schema does not allow \\"legacy\\"'],
  },
  {
    name: "a nested enum value the schema does not allow, and nested schema fields left out",
    check:
      `ResultDrift<(Omit<CanonicalResult, "artifact"> & { artifact: { status: "lost" } })` +
      ` | RunningSnapshot, ExecutionReportResult, "exec">`,
    errors: [
      'exec.artifact.status: the output schema does not allow \\"lost\\"',
      "exec.artifact.id: in the output schema, not in the type",
      "exec.artifact.reason: in the output schema, not in the type",
    ],
  },
  {
    name: "a required field missing",
    check: `ResultDrift<Omit<OutputPage, "eof"> | GrepPage, OutputPageResult, "output">`,
    errors: ["output.eof: required by the output schema, optional or missing in the type"],
  },
  {
    name: "a schema field no variant has",
    check: `ResultDrift<Omit<CanonicalResult, "inputBytes"> | RunningSnapshot, ExecutionReportResult, "exec">`,
    errors: ["exec.inputBytes: in the output schema, not in the type"],
  },
  {
    name: "a value of another type",
    check:
      `ResultDrift<Omit<EnvironmentReport, "roots"> & { roots: number[] },` +
      ` EnvironmentReportResult, "env">`,
    errors: ["env.roots[]: the output schema does not allow number"],
  },
];

/** An import specifier for a source file of the repository, relative to `dir`. */
function sourceFrom(dir: string, file: string): string {
  return path.relative(dir, path.join(REPO_ROOT, file)).split(path.sep).join("/");
}

function project(dir: string): { file: string; firstCaseLine: number } {
  const header = [
    `import type { EnvironmentReportResult, ExecutionReportResult, OutputPageResult } from "${sourceFrom(dir, "src/mcp/output-schemas.js")}";`,
    `import type { NoDrift, ResultDrift } from "${sourceFrom(dir, "src/mcp/result-drift.js")}";`,
    `import type { CanonicalResult, EnvironmentReport, OutputPage, RunningSnapshot, StreamOutput } from "${sourceFrom(dir, "src/runtime/types.js")}";`,
    `import type { GrepPage } from "${sourceFrom(dir, "src/search/grep.js")}";`,
  ];
  const lines = [...header, ...CASES.map((c, i) => `export type Case${i} = NoDrift<${c.check}>;`)];
  const file = path.join(dir, "drift.ts");
  writeFileSync(file, lines.join("\n") + "\n");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023"],
        types: ["node"],
        typeRoots: [path.join(REPO_ROOT, "node_modules/@types")],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      },
      files: ["drift.ts"],
    }),
  );
  return { file, firstCaseLine: header.length + 1 };
}

interface Diagnostic {
  line: number;
  code: string;
  message: string;
}

let dir: string;
let diagnostics: Diagnostic[];
let firstCaseLine: number;
let tscStatus: number | null;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "scm-result-types-"));
  const built = project(dir);
  firstCaseLine = built.firstCaseLine;
  // tsc prints file names relative to its working directory: run it in the project's own, so that
  // the names resolve against `dir` wherever the checkout and the temp directory lie.
  const run = spawnSync(process.execPath, [TSC, "-p", dir, "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
    timeout: TSC_TIMEOUT_MS,
  });
  if (run.error) throw run.error;
  tscStatus = run.status;
  // tsc reports `file(line,col): error TSnnnn: message`, its elaboration on indented lines (the
  // messages of a drift are there: "Types of property 'drift' are incompatible. Type '…'").
  diagnostics = [];
  for (const line of run.stdout.split("\n")) {
    const found = /^(.+)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (found) {
      expect(path.resolve(dir, found[1]!), `an error outside the drift file: ${line}`).toBe(
        built.file,
      );
      diagnostics.push({ line: Number(found[2]), code: found[3]!, message: found[4]! });
    } else if (line.startsWith(" ") && diagnostics.length > 0) {
      diagnostics[diagnostics.length - 1]!.message += "\n" + line.trim();
    }
  }
}, TSC_TIMEOUT_MS + 10_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("ResultsMatchSchemas: a result type that drifts from its output schema fails tsc", () => {
  it("tsc fails, with errors on the drifted lines only", () => {
    expect(tscStatus).not.toBe(0);
    const drifted = CASES.flatMap((c, i) => (c.errors ? [firstCaseLine + i] : []));
    expect([...new Set(diagnostics.map((d) => d.line))].sort((a, b) => a - b)).toEqual(drifted);
  });

  for (const [i, c] of CASES.entries()) {
    it(c.errors ? `${c.name}: TS2344 naming it` : `${c.name}: compiles`, () => {
      const found = diagnostics.filter((d) => d.line === firstCaseLine + i);
      if (!c.errors) {
        expect(found).toEqual([]);
        return;
      }
      expect(found.map((d) => d.code)).toEqual(["TS2344"]);
      for (const error of c.errors) expect(found[0]!.message).toContain(error);
    });
  }
});
