// system_environment through the real server (SPEC §3.2, §7, §8, §13, §18, §19): every field in
// configured and automatic mode, limits reflecting the flags, and the numeric flag errors.

import { mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, runCli } from "./cli-helpers.js";
import {
  baseEnv,
  REPO_ROOT,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
const SECRET = "env-value-SECRET-5d2c91";
const NODE_DIR = path.dirname(process.execPath);

const DEFAULT_POLICY = {
  maxTimeoutMs: 600_000,
  allowStdin: false,
  gracePeriodMs: 2000,
  finalTerminationWaitMs: 5000,
  artifactPolicy: "on-truncation",
  allowBackground: false,
  maxBackgroundTimeoutMs: 3_600_000,
};

async function environment(server: TestServer): Promise<Record<string, any>> {
  const result = await server.call("system_environment");
  expect(result.isError).toBe(false);
  const text = result.content[0];
  expect(text?.type).toBe("text");
  expect(JSON.parse((text as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, any>;
}

let dir: string;

beforeAll(() => {
  dir = tempDir("scm-env-report-");
});

afterAll(() => {
  removeDir(dir);
});

describe("configured mode", () => {
  let server: TestServer;
  let report: Record<string, any>;
  let rootA: string;
  let rootB: string;

  beforeAll(async () => {
    rootA = path.join(dir, "a");
    rootB = path.join(dir, "b");
    mkdirSync(path.join(rootA, "nested"), { recursive: true });
    mkdirSync(rootB);
    mkdirSync(path.join(dir, "bin"));
    symlinkSync("/bin/true", path.join(dir, "bin", "mytool"));
    const manifest = writeManifest(dir, {
      version: 2,
      searchPath: [NODE_DIR, "/usr/bin", "/bin"],
      environment: {
        remove: ["ZZ_REMOVED", "AA_REMOVED"],
        set: {
          GLOBAL_LITERAL: SECRET,
          FROM_ENV: { fromEnvironment: "SCM_TEST_SECRET" },
          OPTIONAL_MISSING: { fromEnvironment: "SCM_TEST_UNSET_VARIABLE", required: false },
        },
      },
      programs: {
        node: {
          candidates: [process.execPath],
          required: true,
          policy: { allowStdin: true, artifactPolicy: "always" },
        },
        echo: {
          candidates: ["echo"],
          policy: { maxTimeoutMs: 5000 },
          environment: { set: { PATH: "/bin", PROGRAM_ONLY: SECRET }, remove: ["MIDDLE"] },
        },
        tool: {
          candidates: ["./bin/mytool"],
          policy: {
            defaultTimeoutMs: 1000,
            maxTimeoutMs: 2000,
            gracePeriodMs: 100,
            finalTerminationWaitMs: 200,
            artifactPolicy: "never",
            allowBackground: true,
            maxBackgroundTimeoutMs: 7000,
          },
        },
        missing: { candidates: ["/nonexistent/scm-missing-program"] },
        disabled: { candidates: ["/bin/true"], enabled: false },
      },
    });
    server = await startServer({
      args: [
        "--manifest",
        manifest,
        "--root",
        rootA,
        "--root",
        path.join(rootA, "nested"),
        "--root",
        rootB,
        "--root",
        `${rootA}/`,
        "--artifact-dir",
        path.join(dir, "artifacts"),
        "--max-output-bytes",
        "1000000",
        "--inline-head-bytes",
        "1000",
        "--default-timeout-ms",
        "12345",
        "--artifact-retention-ms",
        "5000",
        "--artifact-quota-bytes",
        "123456789",
        "--artifact-max-stream-bytes",
        "2000000",
        "--yield-ms",
        "20000",
        "--max-background-executions",
        "7",
        "--max-concurrent-executions",
        "9",
      ],
      env: baseEnv({ SCM_TEST_SECRET: SECRET }),
    });
    report = await environment(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("reports server identity from package.json, platform, arch and mode", () => {
    expect(report.server).toEqual({ name: "system-command-mcp", version: pkg.version });
    expect(report.server.name).toBe(pkg.name);
    expect(report.platform).toBe(process.platform);
    expect(report.arch).toBe(process.arch);
    expect(report.mode).toBe("configured");
  });

  it("reports the effective roots (deduplicated, nested dropped) and the first as cwd", () => {
    expect(report.roots).toEqual([realpathSync(rootA), realpathSync(rootB)]);
    expect(report.cwd).toBe(realpathSync(rootA));
  });

  it("reports exactly the registered programs, each with every field", () => {
    expect(Object.keys(report.programs).sort()).toEqual(["echo", "node", "tool"]);
    for (const [name, program] of Object.entries<Record<string, any>>(report.programs)) {
      expect(Object.keys(program).sort(), name).toEqual(
        expect.arrayContaining([
          "argumentSemantics",
          "declaredCandidate",
          "executable",
          "kind",
          "policy",
          "required",
        ]),
      );
      expect(program.kind, name).toBe("native");
      expect(program.argumentSemantics, name).toBe("literal");
      expect(path.isAbsolute(program.executable), name).toBe(true);
      expect(program.executable, name).toBe(realpathSync(program.executable));
    }
  });

  it("reports executable (real path), declaredCandidate and required per program", () => {
    expect(report.programs.node).toMatchObject({
      executable: realpathSync(process.execPath),
      declaredCandidate: process.execPath,
      required: true,
    });
    expect(report.programs.echo).toMatchObject({
      executable: realpathSync("/bin/echo"),
      declaredCandidate: "echo",
      required: false,
    });
    expect(report.programs.tool).toMatchObject({
      executable: realpathSync("/bin/true"),
      declaredCandidate: "./bin/mytool",
      required: false,
    });
  });

  it("reports effective policies; an unset defaultTimeoutMs is min(--default-timeout-ms, maxTimeoutMs)", () => {
    expect(report.programs.node.policy).toEqual({
      ...DEFAULT_POLICY,
      allowStdin: true,
      artifactPolicy: "always",
      defaultTimeoutMs: 12345,
    });
    expect(report.programs.echo.policy).toEqual({
      ...DEFAULT_POLICY,
      maxTimeoutMs: 5000,
      defaultTimeoutMs: 5000,
    });
    expect(report.programs.tool.policy).toEqual({
      defaultTimeoutMs: 1000,
      maxTimeoutMs: 2000,
      allowStdin: false,
      gracePeriodMs: 100,
      finalTerminationWaitMs: 200,
      artifactPolicy: "never",
      allowBackground: true,
      maxBackgroundTimeoutMs: 7000,
    });
  });

  it("reports `path` only for a program whose PATH differs from the global one", () => {
    expect(report.path).toEqual([NODE_DIR, "/usr/bin", "/bin"]);
    expect(report.programs.echo.path).toEqual(["/bin"]);
    expect("path" in report.programs.node).toBe(false);
    expect("path" in report.programs.tool).toBe(false);
  });

  it("reports environment names sorted, never their values", async () => {
    expect(report.environmentNames).toEqual([
      "AA_REMOVED",
      "FROM_ENV",
      "GLOBAL_LITERAL",
      "MIDDLE",
      "OPTIONAL_MISSING",
      "PATH",
      "PROGRAM_ONLY",
      "ZZ_REMOVED",
    ]);
    const raw = await server.call("system_environment");
    expect(JSON.stringify(raw)).not.toContain(SECRET);
  });

  it("reports the limits the flags set (max output capped at 256 KiB)", () => {
    expect(report.limits).toEqual({
      maxConcurrentExecutions: 9,
      defaultTimeoutMs: 12345,
      maxTimeoutMs: 600_000,
      maxOutputBytes: 262_144,
      // --max-output-bytes alone: twice the effective max, no sharing (§7).
      inlineBudgetBytes: 524_288,
      inlineHeadBytes: 1000,
      maxArgs: 4096,
      maxArgBytes: 65_536,
      maxArgsTotalBytes: 262_144,
      maxInputBytes: 1_048_576,
      artifactRetentionMs: 5000,
      artifactQuotaBytes: 123_456_789,
      artifactMaxStreamBytes: 2_000_000,
      outputPageMaxBytes: 1_048_576,
      outputPageMaxUtf8Bytes: 524_288,
      outputPageDefaultBytes: 24_576,
      defaultYieldMs: 20_000,
      maxBackgroundExecutions: 7,
      maxWaitMs: 50_000,
      handleRetentionMs: 600_000,
      handleRetentionCount: 64,
    });
  });

  it("takes no arguments: an unknown key is INVALID_REQUEST", async () => {
    const result = await server.call("system_environment", { verbose: true });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe("automatic discovery mode", () => {
  let server: TestServer;
  let report: Record<string, any>;
  let root: string;

  beforeAll(async () => {
    root = path.join(dir, "auto");
    mkdirSync(root);
    // An empty entry and a duplicate in the inherited PATH: empty entries are dropped.
    const inherited = `${NODE_DIR}::/usr/bin:/bin:`;
    server = await startServer({
      args: ["--root", root, "--artifact-dir", path.join(dir, "artifacts-auto")],
      env: baseEnv({ PATH: inherited, SCM_TEST_SECRET: SECRET }),
    });
    report = await environment(server);
  });

  afterAll(async () => {
    await server?.close();
  });

  it("reports automatic mode with the inherited PATH minus empty entries", () => {
    expect(report.mode).toBe("automatic-discovery");
    expect(report.server).toEqual({ name: pkg.name, version: pkg.version });
    expect(report.roots).toEqual([realpathSync(root)]);
    expect(report.cwd).toBe(realpathSync(root));
    expect(report.path).toEqual([NODE_DIR, "/usr/bin", "/bin"]);
    expect(report.environmentNames).toEqual([]);
  });

  it("finds node; every program optional with default policies (background for the JS/Python tools) and no own path", () => {
    expect(report.programs.node).toMatchObject({
      executable: realpathSync(process.execPath),
      kind: "native",
      argumentSemantics: "literal",
      required: false,
    });
    const allowed = ["git", "node", "npm", "npx", "pnpm", "yarn", "bun", "python", "ripgrep"];
    const background = new Set(["node", "npm", "npx", "pnpm", "yarn", "bun", "python"]);
    expect(report.programs.node.policy.allowBackground).toBe(true);
    for (const [name, program] of Object.entries<Record<string, any>>(report.programs)) {
      expect(allowed, name).toContain(name);
      expect(program.required, name).toBe(false);
      expect(program.policy, name).toEqual({
        ...DEFAULT_POLICY,
        defaultTimeoutMs: 600_000,
        allowBackground: background.has(name),
      });
      expect("path" in program, name).toBe(false);
    }
  });

  it("reports the default limits", () => {
    expect(report.limits).toMatchObject({
      maxConcurrentExecutions: 4,
      defaultTimeoutMs: 600_000,
      maxOutputBytes: 32_768,
      inlineBudgetBytes: 24_576,
      inlineHeadBytes: 6144,
      artifactRetentionMs: 86_400_000,
      artifactQuotaBytes: 1_073_741_824,
      artifactMaxStreamBytes: 104_857_600,
      defaultYieldMs: 45_000,
      maxBackgroundExecutions: 4,
    });
  });
});

describe("flags (§13)", () => {
  let manifest: string;
  let root: string;

  beforeAll(() => {
    root = path.join(dir, "flags");
    mkdirSync(root);
    manifest = writeManifest(root, {
      version: 2,
      programs: { true: { candidates: ["/bin/true"] } },
    });
  });

  /** The server's manifest, Root and private store, before the flags under test. */
  const configured = () => [
    "--manifest",
    manifest,
    "--root",
    root,
    "--artifact-dir",
    path.join(root, "artifacts"),
  ];

  /** Runs `serve` with stdin closed at once: a valid configuration exits 0 on EOF. */
  const serve = (...flags: string[]) =>
    runCli(["serve", ...configured(), ...flags], { env: baseEnv() });

  it("--inline-head-bytes above the effective maximum → INVALID_RUNTIME_CONFIG, exit 1", () => {
    const cases: string[][] = [
      ["--inline-head-bytes", "32769"],
      ["--max-output-bytes", "1000", "--inline-head-bytes", "1001"],
      // 1000000 is accepted but the effective maximum is 262144.
      ["--max-output-bytes", "1000000", "--inline-head-bytes", "262145"],
    ];
    for (const flags of cases) {
      const run = serve(...flags);
      expect(run.status, flags.join(" ")).toBe(1);
      expect(errorCode(run.stderr), run.stderr).toBe("INVALID_RUNTIME_CONFIG");
      expect(run.stdout).toBe("");
    }
  });

  it("a head equal to the effective maximum is accepted", () => {
    for (const flags of [
      ["--inline-head-bytes", "32768"],
      ["--max-output-bytes", "1000000", "--inline-head-bytes", "262144"],
    ]) {
      const run = serve(...flags);
      expect(run.status, `${flags.join(" ")}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toBe("");
    }
  });

  it("--default-timeout-ms outside 1 … 600000 or not a whole number → INVALID_OPTION, exit 2", () => {
    for (const value of ["0", "600001", "abc", "1.5", "-1", "", "1e3", "0x10"]) {
      const run = serve("--default-timeout-ms", value);
      expect(run.status, `"${value}": ${run.stderr}`).toBe(2);
      expect(errorCode(run.stderr), run.stderr).toBe("INVALID_OPTION");
      expect(run.stderr).toContain("--default-timeout-ms");
      expect(run.stdout).toBe("");
    }
  });

  it("other numeric flags out of range → INVALID_OPTION, exit 2", () => {
    const cases: [string, string][] = [
      ["--max-output-bytes", "0"],
      ["--max-output-bytes", String(8 * 1024 * 1024 + 1)],
      ["--artifact-retention-ms", "86400001"],
      ["--artifact-quota-bytes", "0"],
      ["--artifact-max-stream-bytes", String(100 * 1024 * 1024 + 1)],
      ["--yield-ms", "600001"],
      ["--max-background-executions", "65"],
      ["--max-concurrent-executions", "0"],
    ];
    for (const [flag, value] of cases) {
      const run = serve(flag, value);
      expect(run.status, `${flag} ${value}: ${run.stderr}`).toBe(2);
      expect(errorCode(run.stderr), run.stderr).toBe("INVALID_OPTION");
    }
  });

  it("a repeated numeric flag: the last one wins", async () => {
    const server = await startServer({
      args: [
        ...configured(),
        "--default-timeout-ms",
        "5000",
        "--default-timeout-ms",
        "7000",
        "--max-output-bytes",
        "100",
        "--max-output-bytes",
        "2000",
        "--inline-head-bytes",
        "1500",
        "--inline-head-bytes",
        "10",
        "--yield-ms",
        "3",
        "--yield-ms",
        "9000",
        "--max-concurrent-executions",
        "2",
        "--max-concurrent-executions",
        "3",
        "--artifact-retention-ms",
        "1",
        "--artifact-retention-ms",
        "60000",
      ],
    });
    try {
      const report = await environment(server);
      expect(report.limits).toMatchObject({
        defaultTimeoutMs: 7000,
        maxOutputBytes: 2000,
        inlineHeadBytes: 10,
        defaultYieldMs: 9000,
        maxConcurrentExecutions: 3,
        artifactRetentionMs: 60_000,
      });
      expect(report.programs.true.policy.defaultTimeoutMs).toBe(7000);
    } finally {
      await server.close();
    }
  });

  it("the head defaults to a quarter of the effective maximum", async () => {
    const server = await startServer({
      args: [...configured(), "--max-output-bytes", "8388608"],
    });
    try {
      const report = await environment(server);
      expect(report.limits.maxOutputBytes).toBe(262_144);
      expect(report.limits.inlineHeadBytes).toBe(65_536);
    } finally {
      await server.close();
    }
  });
});
