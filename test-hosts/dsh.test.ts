// DSH's own MCP bridge, loaded in-process with the row `print-config dsh` prints: tools are
// listed under mcp__system-command__*, and calls return the text DSH shows the model.

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { renderHostConfig } from "../src/hosts/index.js";
import { pluginRowOf, startDshHost } from "./helpers/dsh.js";
import type { DshHost, DshToolResult } from "./helpers/dsh.js";
import { killProcessesMentioning, makeWorkspace, waitForNoProcesses } from "./helpers/server.js";
import type { Workspace } from "./helpers/server.js";

const PREFIX = "mcp__system-command__";

let workspace: Workspace;
let host: DshHost | undefined;

/** DSH shows the model the text blocks only; for a success that is the whole result as JSON. */
function modelText(result: DshToolResult): string {
  return result.content.map((block) => block.text ?? "").join("\n");
}

beforeAll(async () => {
  workspace = makeWorkspace("dsh");
  const row = pluginRowOf(renderHostConfig("dsh", workspace.launch));
  host = await startDshHost(row);
});

afterAll(async () => {
  await host?.dispose();
  if (workspace !== undefined) {
    // Disposing the plugin closes the server: none may be left running.
    const left = await waitForNoProcesses(workspace.root);
    killProcessesMentioning(workspace.root);
    await workspace.dispose();
    expect(left).toEqual([]);
  }
});

describe("DSH MCP client with the printed row", () => {
  it("uses the printed settings", () => {
    const row = pluginRowOf(renderHostConfig("dsh", workspace.launch));
    expect(row.config).toMatchObject({
      serverName: "system-command",
      transport: "stdio",
      command: process.execPath,
      args: workspace.launch.args,
      env: workspace.launch.env,
      toolCallTimeoutMs: 300_000,
      failOnStartupError: true,
      reconnect: { enabled: true, initialDelayMs: 500, maxDelayMs: 30_000, maxAttempts: 10 },
    });
  });

  it("registers the tools under model-facing names, with output schemas DSH can check", () => {
    const names = host!.toolNames();
    expect(names).toEqual(
      expect.arrayContaining([
        `${PREFIX}system_environment`,
        `${PREFIX}system_output`,
        `${PREFIX}system_exec`,
      ]),
    );
    // DSH validates structuredContent only for schemas inside its keyword subset; otherwise it
    // falls back to free JSON ({}), which would mean our outputSchema left that subset.
    for (const name of names.filter((tool) => tool.startsWith(PREFIX))) {
      const schema = host!.definition(name)?.output?.schema;
      expect(schema?.properties?.structuredContent, name).not.toEqual({});
    }
  });

  it("runs system_exec and shows the model the whole result as text", async () => {
    const result = await host!.call(`${PREFIX}system_exec`, {
      program: "node",
      args: ["--version"],
    });
    expect(result.isError, JSON.stringify(result)).toBe(false);
    const shown = JSON.parse(modelText(result)) as Record<string, any>;
    expect(shown.status).toBe("completed");
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout.text).toBe(`${process.version}\n`);
    expect(shown).toEqual(result.value?.structuredContent);
  });

  it("reports the Root that came through the YAML row", async () => {
    const result = await host!.call(`${PREFIX}system_environment`, {});
    expect(result.isError, JSON.stringify(result)).toBe(false);
    const shown = JSON.parse(modelText(result)) as Record<string, any>;
    expect(shown.roots).toEqual([workspace.root]);
  });

  it("treats a nonzero exit as a result", async () => {
    const result = await host!.call(`${PREFIX}system_exec`, {
      program: "node",
      args: ["-e", "process.exitCode = 3"],
    });
    expect(result.isError).toBe(false);
    expect(JSON.parse(modelText(result))).toMatchObject({ status: "completed", exitCode: 3 });
  });

  it("turns a tool error into an error whose text is the coded message", async () => {
    const result = await host!.call(`${PREFIX}system_exec`, { program: "no-such-program" });
    expect(result.isError).toBe(true);
    expect(result.error?.message).toMatch(/^PROGRAM_NOT_REGISTERED: /);
    expect(modelText(result)).toMatch(/^Error: PROGRAM_NOT_REGISTERED: /);
  });
});
