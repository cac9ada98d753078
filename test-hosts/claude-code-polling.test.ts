// The real Claude Code CLI polling a running build through our server (SPEC §19 Revision 3): a
// `claude -p` session against a loopback mock of the Anthropic Messages API runs a build that
// yields, then polls it with system_wait. The mock records the tool results Claude Code sent
// back — what the model really saw: only new output each time, then the whole completed result.

import { describe, expect, it } from "vitest";

import { claudeSession, stripReminders } from "./helpers/claude.js";
import { expectOnlyNewOutput, POLL_BUILD_RESULTS, POLL_BUILD_TURNS } from "./helpers/poll-build.js";
import { hostResources } from "./helpers/resources.js";
import { waitForNoProcesses } from "./helpers/server.js";
import { finalResults } from "./helpers/session.js";

const resources = hostResources("claude-poll");

describe("claude -p polling a running build", () => {
  it("shows the model only the new output of each poll, then the whole completed result", async () => {
    const { model, space } = await claudeSession(resources, POLL_BUILD_TURNS);
    const results = finalResults(model);
    expect(results).toHaveLength(POLL_BUILD_RESULTS);
    const seen = results.map((result) => {
      expect(result.isError).toBe(false);
      return JSON.parse(stripReminders(result.text)) as Record<string, any>;
    });
    expectOnlyNewOutput(seen);
    expect(await waitForNoProcesses(space.root)).toEqual([]);
  }, 200_000);
});
