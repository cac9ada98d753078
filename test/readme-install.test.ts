// README.md's install block runs as written (issue 25): extracted verbatim from the Markdown, run
// with `bash -e` in a fresh HOME on a machine with only Node, npm, git and coreutils, against a
// clone of this repository. It uses no alias, installs nothing where the Linux guide installs
// (so the guide's "already installed" check still passes afterwards), writes the guide's manifest
// name, and its acceptance call really runs node.

import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneRepository } from "./helpers/clone.js";
import { shellBlocks, type GuideBlock } from "./helpers/guide.js";
import { makeToolsDir, scratchEnv } from "./helpers/scratch-machine.js";
import { REPO_ROOT, removeDir, tempDir } from "./helpers/server.js";

/** `npm ci` + a build on a loaded machine: generous, but bounded. */
const BLOCK_TIMEOUT_MS = 300_000;
const MANIFEST_NAME = "system-command-manifest.json";

let dir: string;
let home: string;
let clone: string;
let env: Record<string, string>;
let block: GuideBlock;

/** `text` with its `SRC=` line pointing at the clone (the one thing a reader sets). */
const withClone = (text: string, src: string) =>
  text.replace(/^SRC=.*$/m, `SRC='${src.replaceAll("'", "'\\''")}'`);

function bash(flags: string[], script: string) {
  const run = spawnSync("bash", [...flags, "-c", script], {
    cwd: home,
    env,
    encoding: "utf8",
    timeout: BLOCK_TIMEOUT_MS,
  });
  if (run.error) throw new Error(`bash did not finish: ${run.error.message}`);
  return run;
}

beforeAll(() => {
  dir = tempDir("scm-readme-");
  home = path.join(dir, "home");
  mkdirSync(home);
  clone = cloneRepository(path.join(dir, "clone"));
  const tools = makeToolsDir(path.join(dir, "tools"));
  const tmp = path.join(dir, "tmp");
  mkdirSync(tmp);
  env = scratchEnv(home, [tools], tmp);
  const blocks = shellBlocks(readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"), {
    untagged: "skip",
  });
  const install = blocks.filter((b) => b.role === "install");
  expect(install).toHaveLength(1);
  block = install[0]!;
});

afterAll(() => {
  if (dir) removeDir(dir);
});

describe("README.md install block, run as written", () => {
  it(
    "builds the clone, writes the guide's manifest, checks it, prints a snippet, runs node",
    () => {
      expect(block.text).not.toMatch(/^\s*alias\s/m);
      expect(block.text).toMatch(/^SRC=/m);
      expect(block.text).toContain("init --yes");
      expect(block.text).toMatch(/init --yes .*--root /);
      const run = bash(["-e", "-o", "pipefail"], withClone(block.text, clone));
      expect(run.status, `README block exited ${run.status}\n${run.stdout}\n${run.stderr}`).toBe(0);

      // doctor, then the Codex snippet (pointing into the clone), then the exec result.
      expect(run.stdout).toMatch(/Result: runnable/);
      expect(run.stdout).toContain("[mcp_servers.system-command]");
      expect(run.stdout).toContain(path.join(clone, "dist/cli/main.js"));
      const result = JSON.parse(run.stdout.slice(run.stdout.lastIndexOf('{\n  "status"')));
      expect(result).toMatchObject({ status: "completed", exitCode: 0 });
      const nodeVersion = spawnSync(path.join(dir, "tools", "node"), ["--version"], {
        encoding: "utf8",
      }).stdout;
      expect(nodeVersion).toMatch(/^v\d+\.\d+\.\d+\n$/);
      expect(result.stdout.text).toBe(nodeVersion);

      // One manifest name, where the Linux guide keeps it; nothing in the guide's install area.
      const manifest = path.join(home, ".config/system-command-mcp", MANIFEST_NAME);
      expect(lstatSync(manifest).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe(2);
      expect(existsSync(path.join(home, ".local/share/system-command-mcp"))).toBe(false);
      const guide = readFileSync(path.join(REPO_ROOT, "docs/install/linux-agent.md"), "utf8");
      expect(guide).toContain(`MANIFEST="$CONF/${MANIFEST_NAME}"`);
    },
    BLOCK_TIMEOUT_MS + 60_000,
  );

  it("leaves the Linux guide free to install afterwards (its step 2 does not refuse)", () => {
    const guide = shellBlocks(
      readFileSync(path.join(REPO_ROOT, "docs/install/linux-agent.md"), "utf8"),
    );
    const names = guide.find((b) => b.role === "names")!;
    const record = guide.find((b) => b.role === "install" && b.text.includes("already exists"));
    expect(record).toBeDefined();
    const run = bash(
      ["-e", "-u", "-o", "pipefail"],
      `${withClone(names.text, clone)}\n${record!.text}`,
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).not.toContain("STOP");
    expect(run.stdout).toContain("recorded in");
  });
});
