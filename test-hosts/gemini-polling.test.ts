// The real Gemini CLI polling a running build through our server (SPEC §19 Revision 3): a headless
// `gemini -p` session against a loopback mock of the Gemini API runs a build that yields, then
// polls it with system_wait. The mock records the function responses Gemini CLI sent back — what
// the model really saw (our text block): only new output each time, then the whole result.

import { describe, expect, it } from "vitest";

import { geminiSession } from "./helpers/gemini.js";
import { expectOnlyNewOutput, POLL_BUILD_RESULTS, POLL_BUILD_TURNS } from "./helpers/poll-build.js";
import { hostResources } from "./helpers/resources.js";
import { waitForNoProcesses } from "./helpers/server.js";
import { finalResults } from "./helpers/session.js";

const resources = hostResources("gemini-poll");

describe("gemini -p polling a running build", () => {
  it("shows the model only the new output of each poll, then the whole completed result", async () => {
    const { model, space } = await geminiSession(resources, POLL_BUILD_TURNS);
    const results = finalResults(model);
    expect(results).toHaveLength(POLL_BUILD_RESULTS);
    const seen = results.map((result) => {
      expect(result.isError).toBe(false);
      // Gemini wraps our text block in <untrusted_context>; inside it is one line of JSON.
      expect(result.text).toMatch(/^<untrusted_context>\n\{.*\}\n<\/untrusted_context>$/);
      return JSON.parse(
        result.text.slice(result.text.indexOf("{"), result.text.lastIndexOf("}") + 1),
      );
    });
    expectOnlyNewOutput(seen);
    expect(await waitForNoProcesses(space.root)).toEqual([]);
  }, 200_000);
});
