// No V8 code cache, and nothing under the user's cache directory (SPEC §20.1 item 1, §8): every
// command — serve, doctor, exec, print-config, init — runs with HOME and XDG_CACHE_HOME in a
// temp directory, and both cache directories stay absent. The one thing §8 keeps there is the
// default artifact store, and only a server that spools output creates it (and nothing else).

import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDir, runCli, tempDir, writeJson } from "./cli-helpers.js";
import { baseEnv, eventually, startServer } from "./helpers/server.js";

let dir: string;
let root: string;
let manifest: string;
let confinedManifest: string;

beforeAll(() => {
  dir = tempDir("scm-no-cache-");
  root = path.join(dir, "root");
  mkdirSync(root);
  manifest = writeJson(path.join(dir, "m.json"), {
    version: 2,
    programs: { echo: { candidates: ["/bin/echo"] }, head: { candidates: ["/usr/bin/head"] } },
  });
  confinedManifest = writeJson(path.join(dir, "confined.json"), {
    version: 2,
    programs: { echo: { candidates: ["/bin/echo"], sandbox: { filesystem: "read-only" } } },
  });
});

afterAll(() => removeDir(dir));

/** A private HOME (and, with `xdg`, a separate XDG_CACHE_HOME) for one case. */
function homes(name: string, xdg: boolean) {
  const home = path.join(dir, name, "home");
  mkdirSync(home, { recursive: true });
  const xdgCache = path.join(dir, name, "xdg-cache");
  const env = baseEnv({ HOME: home, XDG_STATE_HOME: path.join(dir, name, "state") });
  delete env.XDG_CACHE_HOME;
  if (xdg) env.XDG_CACHE_HOME = xdgCache;
  return { env, caches: [path.join(home, ".cache"), xdgCache] };
}

/** Every path under `top` (relative), or [] when it does not exist. */
function listing(top: string): string[] {
  if (!existsSync(top)) return [];
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(path.join(top, at), { withFileTypes: true })) {
      const relative = path.join(at, entry.name);
      out.push(relative);
      if (entry.isDirectory()) walk(relative);
    }
  };
  walk("");
  return out.sort();
}

const COMMANDS: Record<string, string[]> = {
  doctor: ["doctor", "--manifest", "MANIFEST", "--root", "ROOT"],
  "doctor --execute": ["doctor", "--execute", "--manifest", "MANIFEST", "--root", "ROOT"],
  exec: ["exec", "--manifest", "MANIFEST", "--root", "ROOT", "echo", "hi"],
  "print-config": ["print-config", "codex", "--manifest", "MANIFEST", "--root", "ROOT"],
  init: ["init", "--yes", "INIT", "--root", "ROOT"],
};

describe.each([false, true])("with XDG_CACHE_HOME set: %s", (xdg) => {
  it.each(Object.entries(COMMANDS))("%s writes nothing under a cache directory", (name, args) => {
    const { env, caches } = homes(`${name.replace(/\W/g, "-")}-${xdg}`, xdg);
    const resolved = args.map((arg) =>
      arg === "MANIFEST"
        ? manifest
        : arg === "ROOT"
          ? root
          : arg === "INIT"
            ? path.join(dir, `init-${xdg}.json`)
            : arg,
    );
    const run = runCli(resolved, { env, cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    for (const cache of caches) expect(listing(cache)).toEqual([]);
  });

  it("serve that never spools writes nothing under a cache directory", async () => {
    const { env, caches } = homes(`serve-${xdg}`, xdg);
    const server = await startServer({ args: ["--manifest", manifest, "--root", root], env });
    try {
      const result = await server.exec({ program: "echo", args: ["small"] });
      expect(result.stdout.text).toBe("small\n");
      expect(result.artifact.status).toBe("discarded");
      await server.call("system_environment");
    } finally {
      await server.close();
    }
    for (const cache of caches) expect(listing(cache)).toEqual([]);
  });

  it("serve that publishes creates only the default artifact store (§8)", async () => {
    const { env, caches } = homes(`publish-${xdg}`, xdg);
    const server = await startServer({ args: ["--manifest", manifest, "--root", root], env });
    try {
      const result = await server.exec({ program: "head", args: ["-c", "1000000", "/dev/zero"] });
      expect(result.artifact.status).toBe("published");
    } finally {
      await server.close();
    }
    const [home, xdgCache] = caches as [string, string];
    const used = xdg ? xdgCache : home;
    expect(listing(xdg ? home : xdgCache)).toEqual([]);
    const top = listing(used).filter((entry) => !entry.includes(path.sep + "artifacts" + path.sep));
    expect(top).toEqual(["system-command-mcp", path.join("system-command-mcp", "artifacts")]);
  });
});

describe.runIf(process.platform === "linux")("a server with confined programs", () => {
  it("creates the default artifact store at startup, so that it can hide it (§20.1 item 2)", async () => {
    const { env, caches } = homes("confined", true);
    const store = path.join(caches[1]!, "system-command-mcp", "artifacts");
    const server = await startServer({
      args: ["--manifest", confinedManifest, "--root", root],
      env,
    });
    try {
      expect(await eventually(() => existsSync(path.join(store, "published")))).toBe(true);
      const result = await server.exec({ program: "echo", args: ["confined"] });
      expect(result.stdout.text).toBe("confined\n");
    } finally {
      await server.close();
    }
    expect(listing(caches[0]!)).toEqual([]);
    expect(listing(caches[1]!).filter((entry) => !entry.includes(`artifacts${path.sep}`))).toEqual([
      "system-command-mcp",
      path.join("system-command-mcp", "artifacts"),
    ]);
  });
});
