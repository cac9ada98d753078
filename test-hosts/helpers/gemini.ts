// The real Gemini CLI (@google/gemini-cli, a bundled Node program) run headless with a private
// HOME against the Gemini API mock: API-key auth, usage statistics, telemetry and update checks
// off, the folder trust check skipped (HOSTS.md, verified with 0.61.0).

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { renderHostConfig } from "../../src/hosts/index.js";
import { HOST_MODULES } from "./server.js";
import { runBounded } from "./run.js";
import type { RunResult } from "./run.js";
import type { HostHome } from "./home.js";
import { startMockGemini, type MockGemini } from "./mock-gemini.js";
import type { HostResources } from "./resources.js";
import type { ScriptedTurn } from "./script.js";
import { expectCleanRun, type HostSession } from "./session.js";

/** The CLI's entry script (its `bin`), run with the node running the tests. */
export const GEMINI_ENTRY = join(HOST_MODULES, "@google", "gemini-cli", "bundle", "gemini.js");

/** A model name, so no routing side request asks the mock for a `complexity_score`. */
export const GEMINI_MODEL = "gemini-2.5-pro";

/** Settings beside the server entry: the mock's auth mode and no outside traffic. */
const QUIET_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/**
 * `~/.gemini/settings.json`: the printed snippet's `mcpServers` with `trust` set as its note
 * says (headless runs offer no tool of an untrusted server), plus the quiet settings.
 */
export function writeGeminiSettings(
  home: HostHome,
  snippet: string,
  entryChanges: Record<string, unknown> = { trust: true },
): Record<string, any> {
  const printed = JSON.parse(snippet) as { mcpServers: Record<string, Record<string, unknown>> };
  const servers = Object.fromEntries(
    Object.entries(printed.mcpServers).map(([name, entry]) => [
      name,
      { ...entry, ...entryChanges },
    ]),
  );
  const settings = { mcpServers: servers, ...QUIET_SETTINGS };
  mkdirSync(join(home.dir, ".gemini"), { recursive: true });
  writeFileSync(join(home.dir, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
  return settings;
}

/** Gemini CLI's environment: private HOME, the mock as its API, a dummy key. */
export function geminiEnv(home: HostHome, origin: string): NodeJS.ProcessEnv {
  return home.env({
    GOOGLE_GEMINI_BASE_URL: origin,
    GEMINI_API_KEY: "mock-gemini-key",
    GEMINI_CLI_NO_RELAUNCH: "true",
    GEMINI_TELEMETRY_ENABLED: "false",
  });
}

/** `gemini -p` flags for one headless session. */
export function geminiPrintArgs(prompt: string): string[] {
  return ["-p", prompt, "--output-format", "stream-json", "--skip-trust", "-m", GEMINI_MODEL];
}

/** `gemini <args>` in the home, bounded in time. */
export function runGemini(
  home: HostHome,
  origin: string,
  args: string[],
  timeoutMs = 150_000,
  env: Record<string, string> = {},
): Promise<RunResult> {
  // A project directory of its own: Gemini reads the folder it runs in for context files.
  const cwd = join(home.dir, "project");
  mkdirSync(cwd, { recursive: true });
  return runBounded(process.execPath, [GEMINI_ENTRY, ...args], {
    env: { ...geminiEnv(home, origin), ...env },
    cwd,
    timeoutMs,
  });
}

/**
 * One `gemini -p` session with the printed entry in settings.json (`trust` as its note asks, plus
 * `entryChanges`), against a mock Gemini API playing `turns`; our server gets `flags`. Fails the
 * test unless the session ended cleanly.
 */
export async function geminiSession(
  resources: HostResources,
  turns: ScriptedTurn[],
  options: { flags?: string[]; entryChanges?: Record<string, unknown> } = {},
): Promise<HostSession<MockGemini>> {
  const space = resources.workspace(options.flags);
  const model = resources.afterTest(await startMockGemini(turns), (made) => made.close());
  const dir = resources.home();
  writeGeminiSettings(dir, renderHostConfig("gemini", space.launch), {
    trust: true,
    ...options.entryChanges,
  });
  const run = await runGemini(dir, model.origin, geminiPrintArgs("run the scripted calls"));
  expectCleanRun(run, model);
  return { run, model, space };
}
