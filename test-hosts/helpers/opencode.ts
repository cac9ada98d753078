// The real OpenCode CLI (the native binary of its platform package, opencode-linux-x64 or its
// "baseline" build, pinned in test-hosts/package.json) run headless with a private HOME and XDG directories against the Anthropic mock,
// with model list fetches, auto-update, sharing and default plugins off (HOSTS.md).

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { isMusl } from "./claude.js";
import type { HostHome } from "./home.js";
import { runBounded } from "./run.js";
import type { RunResult } from "./run.js";
import { HOST_MODULES } from "./server.js";

/** The model the config selects (a name in OpenCode's bundled model list). */
export const OPENCODE_MODEL = "anthropic/claude-sonnet-4-5";

/** x64 CPUs without AVX2 need the "baseline" build. */
function hasAvx2(): boolean {
  if (process.arch !== "x64") return false;
  if (process.platform !== "linux") return true;
  try {
    return /(^|\s)avx2(\s|$)/.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

/**
 * The native binary: the platform package's `bin/opencode`. test-hosts pins the platform
 * packages directly: the registry these tests install from lacks the other platforms' packages
 * that the `opencode-ai` wrapper lists, which makes `npm ci` refuse its lockfile.
 */
export function opencodeBinary(): string {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const base = `opencode-${platform}-${process.arch}`;
  const musl = isMusl() ? "-musl" : "";
  const names = hasAvx2()
    ? [`${base}${musl}`, `${base}-baseline${musl}`]
    : [`${base}-baseline${musl}`, `${base}${musl}`];
  const file = process.platform === "win32" ? "opencode.exe" : "opencode";
  const paths = names.map((name) => join(HOST_MODULES, name, "bin", file));
  return paths.find((path) => existsSync(path)) ?? paths[0]!;
}

/**
 * `OPENCODE_CONFIG_CONTENT`: the printed snippet's `mcp` (with `entryChanges`), an Anthropic
 * provider whose base URL is the mock, and every tool allowed.
 */
export function opencodeConfig(
  snippet: string,
  origin: string,
  entryChanges: Record<string, unknown> = {},
): string {
  const printed = JSON.parse(snippet) as { mcp: Record<string, Record<string, unknown>> };
  const mcp = Object.fromEntries(
    Object.entries(printed.mcp).map(([name, entry]) => [name, { ...entry, ...entryChanges }]),
  );
  return JSON.stringify({
    model: OPENCODE_MODEL,
    provider: { anthropic: { options: { baseURL: `${origin}/v1`, apiKey: "sk-ant-mock-key" } } },
    permission: { "*": "allow" },
    mcp,
  });
}

/** `opencode run --format json --pure <prompt>` in a project directory of the home. */
export function runOpencode(
  home: HostHome,
  config: string,
  prompt: string,
  timeoutMs = 150_000,
): Promise<RunResult> {
  const cwd = join(home.dir, "project");
  mkdirSync(cwd, { recursive: true });
  return runBounded(opencodeBinary(), ["run", "--format", "json", "--pure", prompt], {
    env: home.env({
      OPENCODE_CONFIG_CONTENT: config,
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    }),
    cwd,
    timeoutMs,
  });
}
