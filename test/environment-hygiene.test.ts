// Environment hygiene (SPEC §23): removeMatching globs (case-insensitive everywhere), the global
// `inherit` filter and the names it reports — never values.

import { describe, expect, it } from "vitest";
import { applyEnvironmentLayer } from "../src/environment/layers.js";
import { applyInherit } from "../src/environment/inherit.js";
import { matchesNamePattern } from "../src/environment/patterns.js";
import type { EnvironmentLayer } from "../src/manifest/types.js";
import { validateManifest } from "../src/manifest/validate.js";
import { loadCatalog } from "../src/programs/load-catalog.js";
import { thrown } from "./manifest-fixtures.js";

const SECRET = "value-SECRET-8c41f0";

describe("name patterns", () => {
  it("`*` is any run of characters, the rest literal, case ignored", () => {
    expect(matchesNamePattern("GITHUB_TOKEN", "*_TOKEN")).toBe(true);
    expect(matchesNamePattern("github_token", "*_TOKEN")).toBe(true);
    expect(matchesNamePattern("Npm_Token", "*_token")).toBe(true);
    expect(matchesNamePattern("_TOKEN", "*_TOKEN")).toBe(true);
    expect(matchesNamePattern("TOKEN", "*_TOKEN")).toBe(false);
    expect(matchesNamePattern("MY_TOKENS", "*_TOKEN")).toBe(false);
    expect(matchesNamePattern("DB_PASSWORD_FILE", "*PASSWORD*")).toBe(true);
    expect(matchesNamePattern("AWS_SECRET_ACCESS_KEY", "AWS_*")).toBe(true);
    expect(matchesNamePattern("XAWS_KEY", "AWS_*")).toBe(false);
    expect(matchesNamePattern("A.B", "A.B")).toBe(true);
    expect(matchesNamePattern("AXB", "A.B")).toBe(false);
    expect(matchesNamePattern("A+B", "A+*")).toBe(true);
    expect(matchesNamePattern("anything", "*")).toBe(true);
    expect(matchesNamePattern("ABAB_X", "*AB*X")).toBe(true);
    expect(matchesNamePattern("LC_ALL", "LC_*")).toBe(true);
  });

  it("stays linear on a pattern that would make a backtracking matcher slow", () => {
    const name = "A".repeat(5000);
    const pattern = `${"*A".repeat(200)}B`;
    const started = process.hrtime.bigint();
    expect(matchesNamePattern(name, pattern)).toBe(false);
    // A generous bound: a regex-style backtracker needs far longer on this input.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5_000);
  });
});

/** Applies one layer on linux (or the given platform) and returns the result and what it dropped. */
function apply(env: Record<string, string>, layer: EnvironmentLayer, platform = "linux") {
  const copy = { ...env };
  const removedByPattern = new Set<string>();
  applyEnvironmentLayer(copy, layer, {
    startupEnv: env,
    platform: platform as NodeJS.Platform,
    owner: "test",
    removedByPattern,
  });
  return { env: copy, dropped: [...removedByPattern].sort() };
}

describe("removeMatching", () => {
  it("removes every name matching a pattern, whatever its case, on every platform", () => {
    for (const platform of ["linux", "darwin", "win32"]) {
      const { env, dropped } = apply(
        { GITHUB_TOKEN: "a", npm_token: "b", Db_Password: "c", HOME: "/h", TOKENIZER: "d" },
        { removeMatching: ["*_TOKEN", "*password*"] },
        platform,
      );
      expect(env).toEqual({ HOME: "/h", TOKENIZER: "d" });
      expect(dropped).toEqual(["Db_Password", "GITHUB_TOKEN", "npm_token"]);
    }
  });

  it("runs after remove and before set: set wins within the layer", () => {
    const { env } = apply(
      { API_TOKEN: "startup", OTHER_TOKEN: "x", KEEP: "k" },
      {
        remove: ["KEEP"],
        removeMatching: ["*_TOKEN"],
        set: { API_TOKEN: { fromEnvironment: "API_TOKEN" }, NEW_TOKEN: "literal" },
      },
    );
    expect(env).toEqual({ API_TOKEN: "startup", NEW_TOKEN: "literal" });
  });
});

describe("inherit", () => {
  const startup = {
    PATH: "/usr/bin",
    HOME: "/home/u",
    LANG: "C.UTF-8",
    LC_ALL: "C",
    TMPDIR: "/tmp",
    USER: "u",
    LOGNAME: "u",
    SHELL: "/bin/sh",
    TERM: "xterm",
    SSH_AUTH_SOCK: "/s",
    HTTPS_PROXY: "http://p",
    AWS_SECRET_ACCESS_KEY: SECRET,
    SYSTEMROOT: "C:\\Windows",
  };

  it('"all" (or nothing) keeps every variable', () => {
    for (const inherit of [undefined, "all" as const]) {
      const env = { ...startup };
      expect(applyInherit(env, inherit, "linux")).toEqual([]);
      expect(env).toEqual(startup);
    }
  });

  it('"none" keeps nothing but PATH, which §9.5 decides', () => {
    const env = { ...startup };
    const removed = applyInherit(env, "none", "linux");
    expect(env).toEqual({ PATH: "/usr/bin" });
    expect(removed.sort()).toEqual(
      Object.keys(startup)
        .filter((n) => n !== "PATH")
        .sort(),
    );
  });

  it("a list keeps its names and patterns (case-insensitive) plus the always-kept names", () => {
    const env = { ...startup };
    applyInherit(env, ["ssh_auth_sock", "*_proxy"], "linux");
    expect(Object.keys(env).sort()).toEqual(
      [
        "PATH",
        "HOME",
        "LANG",
        "LC_ALL",
        "TMPDIR",
        "USER",
        "LOGNAME",
        "SHELL",
        "TERM",
        "SSH_AUTH_SOCK",
        "HTTPS_PROXY",
      ].sort(),
    );
  });

  it("keeps the Windows system variables only on Windows", () => {
    const posix = { ...startup };
    applyInherit(posix, [], "linux");
    expect(posix.SYSTEMROOT).toBeUndefined();
    const windows = { ...startup, ComSpec: "cmd.exe", Path: "C:\\bin" };
    applyInherit(windows, [], "win32");
    expect(windows.SYSTEMROOT).toBe("C:\\Windows");
    expect(windows.ComSpec).toBe("cmd.exe");
    expect(windows.Path).toBe("C:\\bin");
  });
});

describe("through loadCatalog", () => {
  const startupEnv = {
    PATH: "/inherited/bin",
    HOME: "/home/u",
    GITHUB_TOKEN: SECRET,
    npm_config_authtoken: SECRET,
    Db_Password: SECRET,
    PLAIN: "plain",
    KEPT_BY_LIST: "kept",
  };

  it("filters with inherit first, then the layers; reports dropped names sorted, never values", async () => {
    const manifest = {
      version: 2,
      searchPath: ["/bin", "/usr/bin"],
      environment: {
        inherit: ["KEPT_*", "*TOKEN*", "db_password"],
        removeMatching: ["*_token"],
        set: { NO_COLOR: "1" },
      },
      programs: {
        sh: { candidates: ["sh"], environment: { removeMatching: ["*PASSWORD*", "no_color"] } },
        env: { candidates: ["env"], environment: { set: { GITHUB_TOKEN: "mine" } } },
      },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    // PLAIN: not in the inherit list; GITHUB_TOKEN: inherited, then removed by the pattern.
    expect(catalog.globalEnv).toEqual({
      PATH: "/bin:/usr/bin",
      HOME: "/home/u",
      npm_config_authtoken: SECRET,
      Db_Password: SECRET,
      KEPT_BY_LIST: "kept",
      NO_COLOR: "1",
    });
    expect(catalog.programs.get("sh")?.env).toEqual({
      PATH: "/bin:/usr/bin",
      HOME: "/home/u",
      npm_config_authtoken: SECRET,
      KEPT_BY_LIST: "kept",
    });
    const details = Object.fromEntries(catalog.details.map((d) => [d.name, d]));
    expect(details.sh!.removedByPattern).toEqual(["Db_Password", "GITHUB_TOKEN", "PLAIN"]);
    // env sets GITHUB_TOKEN again: its child has one, so it is not reported as dropped there.
    expect(details.env!.removedByPattern).toEqual(["PLAIN"]);
    // NO_COLOR is not a startup variable; the union over every program is reported.
    expect(catalog.removedByPattern).toEqual(["Db_Password", "GITHUB_TOKEN", "PLAIN"]);
    expect(catalog.environmentNames).toEqual(["GITHUB_TOKEN", "NO_COLOR"]);
    expect(JSON.stringify([catalog.removedByPattern, catalog.details])).not.toContain(SECRET);
  });

  it('inherit "none" keeps the manifest PATH and only what the layers set', async () => {
    const manifest = {
      version: 2,
      searchPath: ["/bin"],
      environment: { inherit: "none", set: { HOME: { fromEnvironment: "HOME" } } },
      programs: { sh: { candidates: ["sh"] } },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    expect(catalog.programs.get("sh")?.env).toEqual({ PATH: "/bin", HOME: "/home/u" });
    expect(catalog.removedByPattern).toEqual(
      ["Db_Password", "GITHUB_TOKEN", "KEPT_BY_LIST", "PLAIN", "npm_config_authtoken"].sort(),
    );
  });

  it("with allowInheritedPath the startup PATH is used even when inherit drops everything", async () => {
    const manifest = {
      version: 2,
      allowInheritedPath: true,
      searchPath: ["/bin"],
      environment: { inherit: "none" },
      programs: { sh: { candidates: ["sh"] } },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    expect(catalog.globalEnv.PATH).toBe("/bin:/inherited/bin");
    expect(catalog.removedByPattern).not.toContain("PATH");
  });

  it("platform overrides replace removeMatching and inherit", async () => {
    const manifest = {
      version: 2,
      searchPath: ["/bin"],
      environment: { inherit: "none", removeMatching: ["PLAIN"] },
      platforms: { linux: { environment: { inherit: "all", removeMatching: ["*TOKEN*"] } } },
      programs: { sh: { candidates: ["sh"] } },
    };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: "linux" });
    expect(catalog.globalEnv.PLAIN).toBe("plain");
    expect(catalog.removedByPattern).toEqual(["GITHUB_TOKEN", "npm_config_authtoken"]);
  });
});

describe("the schema", () => {
  it("accepts removeMatching in every layer and inherit only in the global one", () => {
    const base = { version: 2, programs: { sh: { candidates: ["sh"] } } };
    for (const inherit of ["all", "none", ["HOME", "LC_*"]]) {
      expect(() =>
        validateManifest({ ...base, environment: { inherit, removeMatching: ["*_TOKEN"] } }),
      ).not.toThrow();
    }
    expect(() =>
      validateManifest({
        ...base,
        programs: { sh: { candidates: ["sh"], environment: { removeMatching: ["A*"] } } },
      }),
    ).not.toThrow();
    const refusals = [
      { ...base, environment: { inherit: "some" } },
      { ...base, environment: { removeMatching: [""] } },
      { ...base, environment: { removeMatching: "*_TOKEN" } },
      { ...base, programs: { sh: { candidates: ["sh"], environment: { inherit: "none" } } } },
    ];
    for (const manifest of refusals) {
      expect(thrown(() => validateManifest(manifest)).code).toBe("INVALID_MANIFEST");
    }
  });
});
