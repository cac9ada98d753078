// `doctor`: the static report (text and JSON), probes with --execute, and every refusal (SPEC §13).

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorld } from "./node-fixtures.js";
import {
  errorCode,
  removeDir,
  runCli,
  tempDir,
  writeExecutable,
  writeJson,
} from "./cli-helpers.js";

let dir: string;
let bin1: string;
let bin2: string;
let marker: string;
const nodeDirs: string[] = [];

/** A v2 manifest over the fake programs in bin1/bin2, with overrides. */
function manifest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 2,
    searchPath: [bin1, bin2],
    programs: {
      tool: {
        candidates: ["tool"],
        required: true,
        policy: { defaultTimeoutMs: 5_000, maxTimeoutMs: 10_000 },
      },
      ok: { candidates: ["ok"], required: true, policy: { maxTimeoutMs: 20_000 } },
      marker: { candidates: ["marker"], required: true },
      bad: { candidates: ["bad"] },
      missing: { candidates: ["no-such-program"] },
      off: { candidates: ["ok"], enabled: false },
    },
    probes: { ok: { args: ["--version"] }, marker: {} },
    ...extra,
  };
}

function manifestFile(name: string, value: unknown): string {
  return writeJson(path.join(dir, name), value);
}

beforeAll(() => {
  dir = tempDir("scm-doctor-");
  bin1 = path.join(dir, "bin1");
  bin2 = path.join(dir, "bin2");
  marker = path.join(dir, "marker-ran");
  writeExecutable(path.join(bin1, "tool"), "#!/bin/sh\necho tool 1\n");
  writeExecutable(path.join(bin2, "tool"), "#!/bin/sh\necho tool 2\n");
  writeExecutable(path.join(bin1, "ok"), '#!/bin/sh\necho "ok 1.0"\n');
  writeExecutable(path.join(bin1, "bad"), '#!/bin/sh\necho "bad says no" >&2\nexit 3\n');
  writeExecutable(path.join(bin1, "marker"), `#!/bin/sh\n: > '${marker}'\n`);
  mkdirSync(path.join(dir, "a"));
  mkdirSync(path.join(dir, "b"));
});

afterAll(() => {
  removeDir(dir);
  for (const nodeDir of nodeDirs) removeDir(nodeDir);
});

describe("static doctor", () => {
  it("reports winners, shadows, unavailable optionals and timeouts as JSON, running nothing", () => {
    const file = manifestFile("static.json", manifest());
    const run = runCli(
      ["doctor", "--manifest", file, "--root", dir, "--default-timeout-ms", "25000", "--json"],
      { env: { ...process.env, XDG_CACHE_HOME: path.join(dir, "cache") } },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(true);
    expect(report.manifest).toEqual({ path: file, version: 2 });
    expect(report.roots).toEqual([dir]);
    expect(report.globalPath).toEqual([bin1, bin2]);
    expect(report.limits.defaultTimeoutMs).toBe(25_000);
    // The store the server would use: the per-user cache unless --artifact-dir says otherwise.
    expect(report.artifactDirectory).toBe(
      path.join(dir, "cache", "system-command-mcp", "artifacts"),
    );
    const byName = Object.fromEntries(report.programs.map((p: any) => [p.name, p]));
    expect(byName.tool).toMatchObject({
      status: "registered",
      required: true,
      winner: { candidate: "tool", foundPath: path.join(bin1, "tool") },
      shadowed: [path.join(bin2, "tool")],
      kind: "native",
      timeout: { defaultMs: 5_000, maxMs: 10_000, source: "policy.defaultTimeoutMs" },
    });
    // --default-timeout-ms 25000 is above ok's maxTimeoutMs: the cap is where 20000 comes from.
    expect(byName.ok.timeout).toEqual({
      defaultMs: 20_000,
      maxMs: 20_000,
      source: "policy.maxTimeoutMs",
    });
    expect(byName.marker.timeout).toEqual({
      defaultMs: 25_000,
      maxMs: 600_000,
      source: "--default-timeout-ms",
    });
    expect(byName.tool.policy).toEqual({
      defaultTimeoutMs: 5_000,
      maxTimeoutMs: 10_000,
      allowStdin: false,
      gracePeriodMs: 2_000,
      finalTerminationWaitMs: 5_000,
      artifactPolicy: "on-truncation",
      allowBackground: false,
      maxBackgroundTimeoutMs: 3_600_000,
    });
    expect(byName.missing).toMatchObject({ status: "unavailable", required: false });
    expect(byName.off).toMatchObject({ status: "disabled", enabled: false });
    expect(report.warnings.some((w: string) => w.includes('"missing" is unavailable'))).toBe(true);
    expect(report.warnings).toHaveLength(1);
    expect(report.probes).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it("prints the same facts as readable lines", () => {
    const file = manifestFile("text.json", manifest());
    const run = runCli(["doctor", "--manifest", file, "--root", dir, "--artifact-dir", "store"], {
      cwd: dir,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Manifest: ${file} (version 2)`);
    expect(run.stdout).toContain(`candidate "tool" found at ${path.join(bin1, "tool")}`);
    expect(run.stdout).toContain(`shadowed: ${path.join(bin2, "tool")}`);
    expect(run.stdout).toContain(
      "timeout: default 5000 ms (from policy.defaultTimeoutMs), max 10000 ms",
    );
    expect(run.stdout).toMatch(/missing \(optional\): unavailable/);
    // No --default-timeout-ms was given: the text says so instead of naming the flag.
    expect(run.stdout).toContain(
      "timeout: default 600000 ms (the built-in default; no --default-timeout-ms given), max 600000 ms",
    );
    expect(run.stdout).toContain("timeout: default 20000 ms (capped at policy.maxTimeoutMs)");
    expect(run.stdout).not.toContain("from --default-timeout-ms");
    expect(run.stdout).toMatch(/policy: .*allowStdin false.*allowBackground false/);
    expect(run.stdout).toContain("artifacts: " + path.join(dir, "store") + ",");
    expect(run.stdout).toMatch(/Result: runnable with 1 warning/);
    expect(run.stdout.split("\n").length).toBeGreaterThan(10);
    expect(existsSync(marker)).toBe(false);
  });

  it("reports the discovered Node versions of projectNode", async () => {
    const world = await makeWorld(nodeDirs);
    const file = manifestFile("node.json", {
      version: 2,
      programs: {
        node: { candidates: [path.join(world.installs, "v20.1.0", "bin", "node")], required: true },
      },
      projectNode: {
        enabledRoots: [world.project],
        installationRoots: [world.installs],
        defaultVersion: "20.1.0",
      },
    });
    const run = runCli(["doctor", "--manifest", file, "--root", world.root, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const node = JSON.parse(run.stdout).projectNode;
    expect(node.kind).toBe("project-node");
    expect(node.defaultVersion).toBe("20.1.0");
    expect(node.enabledRoots).toEqual([world.project]);
    expect(node.installations.map((i: any) => i.version)).toEqual(["22.2.0", "20.1.0", "18.20.0"]);
    const text = runCli(["doctor", "--manifest", file, "--root", world.root]);
    expect(text.stdout).toContain("Project Node (project-node):");
    expect(text.stdout).toContain("20.1.0: ");
  });
});

describe("doctor --execute", () => {
  it("runs the probes of required programs through the runtime; --all adds optional ones", () => {
    const file = manifestFile("execute.json", manifest());
    const run = runCli(["doctor", "--manifest", file, "--root", dir, "--execute", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const probes = JSON.parse(run.stdout).probes;
    expect(probes).toEqual([
      expect.objectContaining({
        program: "ok",
        args: ["--version"],
        outcome: "passed",
        exitCode: 0,
        firstLine: "ok 1.0",
      }),
      expect.objectContaining({ program: "marker", outcome: "passed" }),
    ]);
    expect(existsSync(marker)).toBe(true);
  });

  it("skips optional programs' probes without --all and fails an unregistered one with it", () => {
    const file = manifestFile("optional.json", manifest({ probes: { missing: {}, ok: {} } }));
    const without = runCli(["doctor", "--manifest", file, "--root", dir, "--execute", "--json"]);
    expect(without.status).toBe(0);
    expect(JSON.parse(without.stdout).probes[0]).toMatchObject({
      program: "missing",
      outcome: "skipped",
    });
    const withAll = runCli(["doctor", "--manifest", file, "--root", dir, "--execute", "--all"]);
    expect(withAll.status).toBe(1);
    expect(errorCode(withAll.stderr)).toBe("PROBE_PROGRAM_UNAVAILABLE");
    expect(withAll.stdout).toContain("Result: NOT usable");
  });

  it("fails with PROBE_FAILED when the exit code is not accepted", () => {
    const failing = manifestFile("failing.json", manifest({ probes: { bad: { args: ["x"] } } }));
    const run = runCli([
      "doctor",
      "--manifest",
      failing,
      "--root",
      dir,
      "--execute",
      "--all",
      "--json",
    ]);
    expect(run.status).toBe(1);
    expect(errorCode(run.stderr)).toBe("PROBE_FAILED");
    expect(run.stderr).toContain("exited with 3");
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    expect(report.probes[0]).toMatchObject({
      program: "bad",
      outcome: "failed",
      code: "PROBE_FAILED",
      exitCode: 3,
      firstLine: "bad says no",
    });
    const accepting = manifestFile(
      "accepting.json",
      manifest({ probes: { bad: { acceptedExitCodes: [3] } } }),
    );
    const accepted = runCli([
      "doctor",
      "--manifest",
      accepting,
      "--root",
      dir,
      "--execute",
      "--all",
    ]);
    expect(accepted.status).toBe(0);
  });

  it("needs an absolute probe cwd inside a Root when there are several Roots", () => {
    const a = path.join(dir, "a");
    const b = path.join(dir, "b");
    const noCwd = manifestFile("no-cwd.json", manifest({ probes: { ok: {} } }));
    const roots = ["--root", a, "--root", b];
    const refused = runCli(["doctor", "--manifest", noCwd, ...roots, "--execute"]);
    expect(refused.status).toBe(1);
    expect(errorCode(refused.stderr)).toBe("PROBE_CWD_NOT_ALLOWED");
    const outside = manifestFile("outside.json", manifest({ probes: { ok: { cwd: bin1 } } }));
    const outsideRun = runCli(["doctor", "--manifest", outside, ...roots, "--execute"]);
    expect(outsideRun.status).toBe(1);
    expect(errorCode(outsideRun.stderr)).toBe("PROBE_CWD_NOT_ALLOWED");
    const inside = manifestFile("inside.json", manifest({ probes: { ok: { cwd: b } } }));
    expect(runCli(["doctor", "--manifest", inside, ...roots, "--execute"]).status).toBe(0);
  });

  it("accepts --probe as a deprecated alias", () => {
    const file = manifestFile("alias.json", manifest({ probes: { ok: {} } }));
    const run = runCli(["doctor", "--manifest", file, "--root", dir, "--probe"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/deprecated: .*--probe.*--execute/);
    expect(run.stdout).toMatch(/ok: passed/);
  });
});

describe("doctor refusals", () => {
  it("needs --manifest and --root (usage errors, exit 2)", () => {
    const noManifest = runCli(["doctor", "--root", dir]);
    expect(noManifest.status).toBe(2);
    expect(errorCode(noManifest.stderr)).toBe("MANIFEST_REQUIRED");
    const file = manifestFile("usage.json", manifest());
    const noRoot = runCli(["doctor", "--manifest", file]);
    expect(noRoot.status).toBe(2);
    expect(errorCode(noRoot.stderr)).toBe("ROOT_REQUIRED");
  });

  it.each([
    [
      "INVALID_MANIFEST",
      () => manifestFile("invalid.json", { version: 2, programs: {}, extra: 1 }),
    ],
    [
      "REQUIRED_PROGRAM_UNAVAILABLE",
      () =>
        manifestFile("required.json", {
          version: 2,
          programs: { gone: { candidates: ["/no/such/program"], required: true } },
        }),
    ],
    ["MANIFEST_READ_FAILED", () => path.join(dir, "does-not-exist.json")],
    [
      "MANIFEST_JSON_INVALID",
      () => {
        const file = path.join(dir, "broken.json");
        writeFileSync(file, "{ not json");
        return file;
      },
    ],
  ])("prints %s on stderr only and exits 1", (code, makeFile) => {
    const run = runCli(["doctor", "--manifest", makeFile(), "--root", dir, "--json"]);
    expect(run.status).toBe(1);
    expect(errorCode(run.stderr)).toBe(code);
    expect(run.stdout).toBe("");
  });

  it("rejects a missing Root and conflicting limits (exit 1)", () => {
    const file = manifestFile("limits.json", manifest());
    const badRoot = runCli(["doctor", "--manifest", file, "--root", path.join(dir, "nope")]);
    expect(badRoot.status).toBe(1);
    expect(errorCode(badRoot.stderr)).toBe("ROOT_NOT_DIRECTORY");
    const conflict = runCli([
      "doctor",
      "--manifest",
      file,
      "--root",
      dir,
      "--max-output-bytes",
      "100",
      "--inline-head-bytes",
      "200",
    ]);
    expect(conflict.status).toBe(1);
    expect(errorCode(conflict.stderr)).toBe("INVALID_RUNTIME_CONFIG");
  });
});
