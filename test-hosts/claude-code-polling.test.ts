// The real Claude Code CLI polling a running build through our server (SPEC §19 Revision 3): a
// `claude -p` session against a loopback mock of the Anthropic Messages API runs a build that
// yields, then polls it with system_wait. The mock records the tool results Claude Code sent
// back — what the model really saw: only new output each time, then the whole completed result.

import { describe, expect, it } from "vitest";

import { CLAUDE_CODE_PERMISSION_RULE, renderHostConfig } from "../src/hosts/index.js";
import { claudeBinary, claudeEnv, claudePrintArgs, writeMcpConfig } from "./helpers/claude.js";
import { startMockAnthropic } from "./helpers/mock-anthropic.js";
import {
  expectOnlyNewOutput,
  POLL_BUILD_RESULTS,
  POLL_BUILD_TURNS,
  stripReminders,
} from "./helpers/poll-build.js";
import { hostResources } from "./helpers/resources.js";
import { runBounded } from "./helpers/run.js";
import { waitForNoProcesses } from "./helpers/server.js";

const resources = hostResources("claude-poll");

describe("claude -p polling a running build", () => {
  it("shows the model only the new output of each poll, then the whole completed result", async () => {
    const space = resources.workspace();
    const model = resources.afterTest(await startMockAnthropic(POLL_BUILD_TURNS), (made) =>
      made.close(),
    );
    const dir = resources.home();
    const config = writeMcpConfig(dir, renderHostConfig("claude-code", space.launch));
    const args = claudePrintArgs(config, [CLAUDE_CODE_PERMISSION_RULE], "run the scripted calls");
    const run = await runBounded(claudeBinary(), args, {
      env: claudeEnv(dir, model.origin),
      cwd: dir.dir,
      timeoutMs: 150_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.code, run.stderr).toBe(0);
    expect(model.errors).toEqual([]);
    const results = model.requests.at(-1)?.results ?? [];
    expect(results).toHaveLength(POLL_BUILD_RESULTS);
    const seen = results.map((result) => {
      expect(result.isError).toBe(false);
      return JSON.parse(stripReminders(result.text)) as Record<string, any>;
    });
    expectOnlyNewOutput(seen);
    expect(await waitForNoProcesses(space.root)).toEqual([]);
  }, 200_000);
});
