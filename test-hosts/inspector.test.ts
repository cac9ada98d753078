// The MCP Inspector CLI 0.15 (the SDK's own client) reading the `mcpServers` JSON that
// `print-config claude-desktop` / `cursor` print: tools/list and tools/call of system_exec.
// The Inspector exits 0 even for an isError result, so the printed JSON is what is checked.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { renderHostConfig } from "../src/hosts/index.js";
import { runBounded } from "./helpers/run.js";
import { HOST_MODULES, killProcessesMentioning, makeWorkspace } from "./helpers/server.js";
import { waitForNoProcesses } from "./helpers/server.js";
import type { Workspace } from "./helpers/server.js";

const INSPECTOR_CLI = join(
  HOST_MODULES,
  "@modelcontextprotocol",
  "inspector",
  "cli",
  "build",
  "cli.js",
);

let workspace: Workspace;
let configFile: string;

beforeAll(() => {
  workspace = makeWorkspace("inspector");
  configFile = join(workspace.dir, "mcp.json");
  writeFileSync(configFile, renderHostConfig("claude-desktop", workspace.launch));
});

afterEach(async () => {
  expect(await waitForNoProcesses(workspace.root)).toEqual([]);
});

afterAll(async () => {
  killProcessesMentioning(workspace?.root ?? "\0");
  await workspace?.dispose();
});

/** Run the Inspector CLI against the config file's server and parse the JSON it prints. */
async function inspect(args: string[]): Promise<Record<string, any>> {
  const run = await runBounded(
    process.execPath,
    [INSPECTOR_CLI, "--cli", "--config", configFile, "--server", "system-command", ...args],
    { timeoutMs: 60_000, cwd: workspace.dir },
  );
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, any>;
}

describe("MCP Inspector CLI with the printed mcpServers JSON", () => {
  it("lists the tools in contract order with annotations", async () => {
    const listed = await inspect(["--method", "tools/list"]);
    const tools = listed.tools as Record<string, any>[];
    const names = tools.map((tool) => tool.name);
    expect(names.slice(0, 3)).toEqual(["system_environment", "system_output", "system_exec"]);
    const exec = tools.find((tool) => tool.name === "system_exec");
    expect(exec?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(exec?.inputSchema?.type).toBe("object");
    expect(exec?.outputSchema?.type).toBe("object");
  });

  it("calls system_exec with literal arguments", async () => {
    const literal = "a b; echo $HOME | * 'q' \"d\"";
    const called = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "system_exec",
      "--tool-arg",
      "program=node",
      "--tool-arg",
      `args=${JSON.stringify(["-e", "process.stdout.write(process.argv[1])", literal])}`,
    ]);
    expect(called.isError).toBe(false);
    expect(called.structuredContent).toMatchObject({ status: "completed", exitCode: 0 });
    expect(called.structuredContent.stdout.text).toBe(literal);
    // The text block carries the same result for hosts that show only text.
    expect(JSON.parse(called.content[0].text)).toEqual(called.structuredContent);
  });

  it("returns a tool error as isError with one coded text block", async () => {
    const called = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "system_exec",
      "--tool-arg",
      "program=no-such-program",
    ]);
    expect(called.isError).toBe(true);
    expect(called.structuredContent).toBeUndefined();
    expect(called.content).toHaveLength(1);
    expect(called.content[0].text).toMatch(/^PROGRAM_NOT_REGISTERED: /);
  });
});
