// A private HOME for one host run: XDG directories inside it, and an environment that holds
// only what a host needs plus the mock settings, so no real credentials, proxies or user
// configuration reach the host (and loopback traffic never goes through a proxy).

import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface HostHome {
  /** HOME for the host (real path). */
  dir: string;
  /** The host's environment: private HOME/XDG dirs, PATH, locale, plus `extra`. */
  env(extra: Record<string, string>): NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

/** Parent variables a host may see; everything else (keys, proxies, configs) stays out. */
const KEPT = ["PATH", "LANG", "LC_ALL", "TERM", "TZ"];

/** Make a private HOME with `.config`, `.cache`, `.local/share`, `.local/state` inside. */
export function makeHostHome(label: string): HostHome {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `sc-${label}-home-`)));
  const xdg = {
    XDG_CONFIG_HOME: join(dir, ".config"),
    XDG_CACHE_HOME: join(dir, ".cache"),
    XDG_DATA_HOME: join(dir, ".local", "share"),
    XDG_STATE_HOME: join(dir, ".local", "state"),
  };
  for (const path of Object.values(xdg)) mkdirSync(path, { recursive: true });
  const tmp = join(dir, "tmp");
  mkdirSync(tmp);
  return {
    dir,
    env(extra) {
      const env: NodeJS.ProcessEnv = {};
      for (const name of KEPT) if (process.env[name] !== undefined) env[name] = process.env[name];
      return {
        ...env,
        HOME: dir,
        USER: process.env.USER ?? "tester",
        TMPDIR: tmp,
        ...xdg,
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
        NO_COLOR: "1",
        ...extra,
      };
    },
    dispose: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }),
  };
}
