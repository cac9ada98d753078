// `exec --format text` (SPEC §13, Revision 3): the stdout excerpt on stdout and the stderr excerpt
// on stderr, byte for byte as the program wrote them (with the omission marker when cut), plus one
// summary line on stderr only when something was truncated, timed out or killed.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDir, runCli, tempDir } from "./cli-helpers.js";

let root: string;
let env: NodeJS.ProcessEnv;

const text = (args: string[]) =>
  runCli(["exec", "--root", root, "--format", "text", ...args], { env, cwd: root });

beforeAll(() => {
  root = tempDir("scm-exec-format-");
  env = {
    ...process.env,
    XDG_CACHE_HOME: path.join(root, "cache"),
    XDG_STATE_HOME: path.join(root, "state"),
  };
});
afterAll(() => removeDir(root));

describe("exec --format text", () => {
  it("writes each stream where the program wrote it, nothing added, and its exit status", () => {
    const script =
      'process.stdout.write("out\\nno newline"); process.stderr.write("err!\\n"); process.exit(3)';
    const run = text(["node", "-e", script]);
    expect(run.status).toBe(3);
    expect(run.stdout).toBe("out\nno newline");
    expect(run.stderr).toBe("err!\n");
  });

  it("adds one summary line on stderr when the output was truncated, with the marker kept", () => {
    const script = 'process.stdout.write("a".repeat(100000) + "END\\n")';
    const run = text(["--max-output-bytes", "1000", "node", "-e", script]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^a+\n\[\.\.\. \d+ bytes omitted \.\.\.\]\na*END\n$/);
    const lines = run.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^system-command-mcp: node: stdout truncated \(\d+ of 100004 bytes omitted\); complete output: artifact [0-9a-f-]+$/,
    );
  });

  it("puts the summary on a line of its own after stderr without a final newline", () => {
    const script = 'process.stderr.write("partial"); process.kill(process.pid, "SIGKILL")';
    const run = text(["node", "-e", script]);
    expect(run.status).toBe(137);
    expect(run.stderr).toBe("partial\nsystem-command-mcp: node: killed by SIGKILL\n");
    expect(run.stdout).toBe("");
  });

  it("says when the program timed out", () => {
    const run = text(["--timeout-ms", "300", "node", "-e", "setTimeout(() => {}, 20000)"]);
    expect(run.status).toBe(124);
    expect(run.stderr).toMatch(/^system-command-mcp: node: timed out after \d+ ms/);
  });

  it("refuses a format it does not know with INVALID_OPTION (exit 2)", () => {
    const run = text(["--format", "yaml", "node", "--version"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("INVALID_OPTION");
  });
});
