// The Linux install guide works as written (SPEC §14): its shell blocks, extracted from the
// Markdown, run in order with bash in a scratch HOME against a clone of this repository; the
// acceptance call really runs a program; the rollback restores the scratch HOME byte for byte.
// Codex and Claude Code are stand-ins on PATH that edit their files as the real ones do.

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneRepository } from "./helpers/clone.js";
import { shellBlocks, treePicture, type GuideBlock } from "./helpers/guide.js";
import { makeToolsDir, scratchEnv } from "./helpers/scratch-machine.js";
import { REPO_ROOT, removeDir, tempDir } from "./helpers/server.js";

/** One block may run `npm ci` + a build on a loaded machine: generous, but bounded. */
const BLOCK_TIMEOUT_MS = 300_000;
const GUIDE = path.join(REPO_ROOT, "docs/install/linux-agent.md");
const PRESEEDED_CODEX =
  '# my settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"';
const PRESEEDED_CLAUDE = JSON.stringify({ numStartups: 3, mcpServers: {} }, null, 2);

let dir: string;
let home: string;
let env: Record<string, string>;
let blocks: GuideBlock[];
let names: string;

/** Runs one block with the names block in front, in a fresh `bash -euo pipefail`. */
function runBlock(block: GuideBlock): { stdout: string; stderr: string } {
  const run = spawnSync("bash", ["-euo", "pipefail", "-c", `${names}\n${block.text}`], {
    cwd: home,
    env,
    encoding: "utf8",
    timeout: BLOCK_TIMEOUT_MS,
  });
  const where = `guide block at line ${block.line} (${block.role})`;
  if (run.error) throw new Error(`${where} did not finish: ${run.error.message}`);
  if (run.status !== 0) {
    throw new Error(
      `${where} exited ${run.status}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`,
    );
  }
  return { stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  dir = tempDir("scm-guide-");
  home = path.join(dir, "home");
  const clone = cloneRepository(path.join(dir, "clone"));
  // The machine: a bin directory with exactly the tools the guide may use, plus the fake hosts.
  const tools = makeToolsDir(path.join(dir, "tools"));
  const hosts = path.join(dir, "hosts");
  mkdirSync(hosts);
  for (const host of ["codex", "claude"]) {
    const file = path.join(hosts, host);
    writeFileSync(file, readFileSync(path.join(REPO_ROOT, "test/fixtures/fake-hosts", host)));
    chmodSync(file, 0o755);
  }
  const tmp = path.join(dir, "tmp");
  mkdirSync(tmp);
  // The scratch HOME before the installation: Codex configured in a custom $CODEX_HOME, Claude
  // Code used before, ~/.config in use by another program.
  mkdirSync(path.join(home, "my-codex"), { recursive: true });
  writeFileSync(path.join(home, "my-codex", "config.toml"), PRESEEDED_CODEX);
  writeFileSync(path.join(home, ".claude.json"), PRESEEDED_CLAUDE);
  mkdirSync(path.join(home, ".config", "other-app"), { recursive: true });
  writeFileSync(path.join(home, ".config", "other-app", "settings"), "keep=1\n");
  // An earlier version installed the guide's way: its directory, and the PATH link to it (which
  // the rollback must point back there); an empty ~/.cache that must survive.
  const previous = path.join(home, ".local/share/system-command-mcp/0.0.1");
  mkdirSync(path.join(previous, "bin"), { recursive: true });
  writeFileSync(path.join(previous, "bin/system-command-mcp"), "#!/bin/sh\necho 0.0.1\n");
  chmodSync(path.join(previous, "bin/system-command-mcp"), 0o755);
  mkdirSync(path.join(home, ".local/bin"), { recursive: true });
  symlinkSync(
    path.join(previous, "bin/system-command-mcp"),
    path.join(home, ".local/bin/system-command-mcp"),
  );
  mkdirSync(path.join(home, ".cache"));
  env = {
    ...scratchEnv(home, [hosts, tools], tmp),
    CODEX_HOME: path.join(home, "my-codex"),
    SCM_TEST_SMOL_TOML: createRequire(path.join(REPO_ROOT, "package.json")).resolve("smol-toml"),
  };
  blocks = shellBlocks(readFileSync(GUIDE, "utf8"));
  const namesBlocks = blocks.filter((block) => block.role === "names");
  expect(namesBlocks).toHaveLength(1);
  // The one variable an agent sets: where the clone is.
  names = namesBlocks[0]!.text.replace(/^SRC=.*$/m, `SRC='${clone.replaceAll("'", "'\\''")}'`);
  expect(names).toContain(`SRC='${clone}`);
});

afterAll(() => {
  if (dir) removeDir(dir);
});

describe("docs/install/linux-agent.md, run as written", () => {
  it(
    "installs, runs a real program, configures Codex/Claude Code/DSH, and rolls back exactly",
    () => {
      const before = treePicture(home);
      const install = blocks.filter((b) => b.role === "install" || b.role === "acceptance");
      const rollback = blocks.filter((b) => b.role === "rollback");
      expect(install.length).toBeGreaterThanOrEqual(6);
      expect(rollback.length).toBeGreaterThanOrEqual(1);
      // Install blocks come before every rollback block.
      expect(Math.max(...install.map((b) => b.line))).toBeLessThan(
        Math.min(...rollback.map((b) => b.line)),
      );

      let acceptance: string | undefined;
      let probes: string | undefined;
      for (const block of install) {
        const { stdout } = runBlock(block);
        if (block.role === "acceptance") acceptance = stdout;
        if (block.text.includes("--execute --all")) probes = stdout;
      }

      // The acceptance call ran node through the installed server runtime.
      expect(acceptance).toBeDefined();
      const result = JSON.parse(acceptance!);
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      const nodeVersion = spawnSync(path.join(dir, "tools", "node"), ["--version"], {
        encoding: "utf8",
      }).stdout;
      expect(result.stdout.text).toBe(nodeVersion);
      expect(nodeVersion).toMatch(/^v\d+\.\d+\.\d+\n$/);
      // doctor --execute --all ran every program's probe.
      expect(probes).toMatch(/Probes \([1-9]\d*\):/);
      expect(probes).toMatch(/node --version: passed/);
      expect(probes).not.toMatch(/FAILED/);

      // What the installation left: a versioned directory, a working link, three host entries.
      const version = JSON.parse(
        readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"),
      ).version;
      const installDir = path.join(home, ".local/share/system-command-mcp", version);
      expect(existsSync(`${installDir}.partial`)).toBe(false);
      const link = path.join(home, ".local/bin/system-command-mcp");
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      const linked = spawnSync(link, ["--version"], { env, encoding: "utf8", timeout: 30_000 });
      expect(linked.stdout.trim()).toBe(version);
      const codexText = readFileSync(path.join(home, "my-codex/config.toml"), "utf8");
      expect(codexText.startsWith(PRESEEDED_CODEX)).toBe(true);
      const codex = parseToml(codexText) as any;
      expect(codex.mcp_servers.other.command).toBe("other-server");
      const server = codex.mcp_servers["system-command"];
      expect(server.args[0]).toBe(
        path.join(installDir, "lib/node_modules/system-command-mcp/dist/cli/main.js"),
      );
      expect(server.args).toContain(path.join(home, "src"));
      expect(existsSync(path.join(home, ".codex"))).toBe(false);
      const claude = JSON.parse(readFileSync(path.join(home, ".claude.json"), "utf8"));
      expect(claude.numStartups).toBe(3);
      expect(claude.mcpServers["system-command"].args).toEqual(server.args);
      expect(readFileSync(path.join(home, ".dsh/cordis.patch.yml"), "utf8")).toContain(
        "serverName: system-command",
      );
      const manifest = path.join(home, ".config/system-command-mcp/system-command-manifest.json");
      expect(lstatSync(manifest).mode & 0o777).toBe(0o600);
      // The guide's `claude mcp` steps made Claude Code's own directories (the stand-in does what
      // the real CLI does); neither existed before, so the rollback below must remove them too.
      expect(existsSync(path.join(home, ".claude/statsig"))).toBe(true);
      expect(existsSync(path.join(home, ".cache/claude-cli-nodejs"))).toBe(true);
      expect(before[".claude"]).toBeUndefined();
      expect(before[".cache"]).toEqual({ kind: "dir", mode: expect.any(Number) });

      for (const block of rollback) runBlock(block);
      expect(treePicture(home)).toEqual(before);
    },
    30 * 60_000,
  );

  it("a failed build leaves nothing that looks installed, also without `set -e`", () => {
    // A "clone" whose `npm ci` fails at once (no lockfile), run as an agent's plain shell would.
    const brokenSrc = path.join(dir, "broken-clone");
    mkdirSync(brokenSrc);
    writeFileSync(
      path.join(brokenSrc, "package.json"),
      JSON.stringify({ name: "system-command-mcp", version: "9.9.9" }),
    );
    const scratch = path.join(dir, "home-broken");
    mkdirSync(scratch);
    const build = blocks.find((b) => b.role === "install" && b.text.includes("npm pack"));
    expect(build).toBeDefined();
    const brokenNames = names.replace(/^SRC=.*$/m, `SRC='${brokenSrc}'`);
    const run = spawnSync("bash", ["-u", "-c", `${brokenNames}\n${build!.text}`], {
      cwd: scratch,
      env: { ...env, HOME: scratch },
      encoding: "utf8",
      timeout: BLOCK_TIMEOUT_MS,
    });
    expect(run.error).toBeUndefined();
    expect(run.status).not.toBe(0);
    const base = path.join(scratch, ".local/share/system-command-mcp");
    expect(existsSync(path.join(base, "9.9.9"))).toBe(false);
    expect(existsSync(path.join(base, "9.9.9.partial"))).toBe(true);
  });
});
