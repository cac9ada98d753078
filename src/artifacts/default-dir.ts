// The default artifact store directory (SPEC §8), on its own: `doctor` and `print-config` need the
// path, not the store, nor the crypto module the store's artifact ids come from.

import path from "node:path";

/** The application's folder name inside the per-user cache directory. */
const APP_DIR = "system-command-mcp";
const ARTIFACTS_DIR = "artifacts";

/**
 * The default store directory (§8): the per-user cache directory of the platform.
 * Linux and other POSIX: $XDG_CACHE_HOME (only when absolute, as the XDG spec asks) or ~/.cache;
 * macOS: ~/Library/Caches; Windows: %LOCALAPPDATA% (or ~\AppData\Local when unset).
 */
export function defaultArtifactDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  homeDir: string,
): string {
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    const base =
      local && path.win32.isAbsolute(local) ? local : path.win32.join(homeDir, "AppData", "Local");
    return path.win32.join(base, APP_DIR, ARTIFACTS_DIR);
  }
  if (platform === "darwin") {
    return path.posix.join(homeDir, "Library", "Caches", APP_DIR, ARTIFACTS_DIR);
  }
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homeDir, ".cache");
  return path.posix.join(base, APP_DIR, ARTIFACTS_DIR);
}
