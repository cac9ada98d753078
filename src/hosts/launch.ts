// What every host snippet starts the server with, and the settings all snippets share (SPEC §14).

/** How a host starts the server: absolute node, then the entry script, "serve" and its flags. */
export interface ServerLaunch {
  /** Absolute path of the node executable (`process.execPath`): dock-started apps lack a PATH. */
  command: string;
  /** `[absolute entry script, "serve", ...flags]`, each passed to the process literally. */
  args: string[];
  /** Extra environment variables the host sets for the server, if any. */
  env?: Record<string, string>;
}

/** The server name every snippet registers; hyphen, not underscore (Gemini splits on `_`). */
export const SERVER_NAME = "system-command";

/** Per-call limit written into every host that has one (their defaults are about 60 s). */
export const HOST_TOOL_TIMEOUT_MS = 300_000;

/** Codex startup limit: the server resolves programs and recovers state before it answers. */
export const HOST_STARTUP_TIMEOUT_MS = 30_000;

/** The environment entries of a launch, in the order given, or none. */
export function launchEnv(launch: ServerLaunch): [string, string][] {
  return Object.entries(launch.env ?? {});
}
