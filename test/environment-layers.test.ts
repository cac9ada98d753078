// The layered child environment of SPEC §9.4, layer by layer.

import { describe, expect, it } from "vitest";
import {
  buildGlobalEnvironment,
  buildProgramEnvironment,
  environmentNames,
} from "../src/environment/child-environment.js";
import { applyEnvironmentLayer } from "../src/environment/layers.js";
import type { EnvironmentLayer } from "../src/manifest/types.js";
import { loadCatalog } from "../src/programs/load-catalog.js";
import { thrown } from "./manifest-fixtures.js";

const linux = "linux" as const;

/** Applies one layer to a copy of `env`, references reading `startupEnv`. */
function apply(
  env: Record<string, string>,
  layer: EnvironmentLayer,
  startupEnv: Record<string, string> = env,
) {
  const copy = { ...env };
  applyEnvironmentLayer(copy, layer, { startupEnv, platform: linux, owner: "test" });
  return copy;
}

describe("one layer", () => {
  it("removes, then sets; within a layer set wins over remove", () => {
    const env = apply(
      { A: "1", B: "2", C: "3" },
      { remove: ["A", "B"], set: { B: "new", D: "4" } },
    );
    expect(env).toEqual({ B: "new", C: "3", D: "4" });
  });

  it("sets literals without any $VAR expansion", () => {
    expect(
      apply({ HOME: "/home/u" }, { set: { X: "$HOME/bin", Y: "%HOME%", Z: "${HOME}" } }),
    ).toMatchObject({
      X: "$HOME/bin",
      Y: "%HOME%",
      Z: "${HOME}",
    });
  });

  it("reads references from the startup environment, not the layered one", () => {
    const env = apply(
      { TOKEN: "layered" },
      { set: { COPY: { fromEnvironment: "TOKEN" } } },
      { TOKEN: "startup" },
    );
    expect(env.COPY).toBe("startup");
  });

  it("fails with MISSING_ENVIRONMENT_REFERENCE for a missing reference (required by default), without values", () => {
    for (const value of [
      { fromEnvironment: "ABSENT" },
      { fromEnvironment: "ABSENT", required: true },
    ]) {
      const error = thrown(() => apply({ SECRET: "hunter2" }, { set: { TARGET: value } }));
      expect(error.code).toBe("MISSING_ENVIRONMENT_REFERENCE");
      expect(error.message).toContain("ABSENT");
      expect(error.message).toContain("TARGET");
      expect(error.message).not.toContain("hunter2");
    }
  });

  it("removes the variable when an optional reference is missing", () => {
    const env = apply(
      { TARGET: "old", KEEP: "1" },
      { set: { TARGET: { fromEnvironment: "ABSENT", required: false } } },
    );
    expect(env).toEqual({ KEEP: "1" });
  });

  it("keeps an empty startup value: it is set", () => {
    expect(apply({ EMPTY: "" }, { set: { COPY: { fromEnvironment: "EMPTY" } } }).COPY).toBe("");
  });
});

describe("Windows names are case-insensitive", () => {
  const win = (env: Record<string, string>, layer: EnvironmentLayer) => {
    const copy = { ...env };
    applyEnvironmentLayer(copy, layer, { startupEnv: env, platform: "win32", owner: "test" });
    return copy;
  };

  it("an assignment reuses the existing key's spelling", () => {
    expect(win({ Path: "C:\\a" }, { set: { PATH: "C:\\b" } })).toEqual({ Path: "C:\\b" });
  });

  it("a removal removes every spelling", () => {
    expect(win({ Temp: "x", TEMP: "y", OTHER: "z" }, { remove: ["temp"] })).toEqual({ OTHER: "z" });
  });

  it("references are looked up case-insensitively", () => {
    expect(
      win({ UserProfile: "C:\\Users\\u" }, { set: { HOME: { fromEnvironment: "USERPROFILE" } } })
        .HOME,
    ).toBe("C:\\Users\\u");
  });

  it("POSIX names stay case-sensitive", () => {
    expect(apply({ Path: "a" }, { set: { PATH: "b" } })).toEqual({ Path: "a", PATH: "b" });
  });
});

describe("the whole order: startup → PATH/PATHEXT → global remove → global set → program remove → program set", () => {
  const startupEnv = {
    PATH: "/inherited",
    A: "startup-a",
    B: "startup-b",
    G: "startup-g",
    REF: "ref-value",
  };

  it("builds the global and the program environment", () => {
    const globalEnv = buildGlobalEnvironment({
      startupEnv,
      platform: linux,
      globalPath: ["/one", "/two"],
      pathExt: ".EXE",
      layer: { remove: ["A", "G"], set: { G: "global-g", FROM: { fromEnvironment: "REF" } } },
    });
    expect(globalEnv).toEqual({
      PATH: "/one:/two",
      B: "startup-b",
      G: "global-g",
      REF: "ref-value",
      FROM: "ref-value",
    });
    const programEnv = buildProgramEnvironment({
      globalEnv,
      layer: { remove: ["G", "B"], set: { B: "program-b" } },
      program: "git",
      startupEnv,
      platform: linux,
    });
    expect(programEnv).toEqual({
      PATH: "/one:/two",
      B: "program-b",
      REF: "ref-value",
      FROM: "ref-value",
    });
    expect(globalEnv.G).toBe("global-g");
  });

  it("unsets PATH when the global PATH is empty and sets PATHEXT only on Windows", () => {
    const posix = buildGlobalEnvironment({
      startupEnv,
      platform: linux,
      globalPath: [],
      pathExt: ".EXE",
      layer: {},
    });
    expect(posix.PATH).toBeUndefined();
    expect(posix.PATHEXT).toBeUndefined();
    const windows = buildGlobalEnvironment({
      startupEnv: { Path: "C:\\x", PATHEXT: ".COM;.EXE;.VBS" },
      platform: "win32",
      globalPath: ["C:\\a", "C:\\b"],
      pathExt: ".EXE;.CMD",
      layer: {},
    });
    expect(windows).toEqual({ Path: "C:\\a;C:\\b", PATHEXT: ".EXE;.CMD" });
  });

  it("lists the names set or removed, sorted, once", () => {
    const names = environmentNames(
      [
        { remove: ["B", "A"], set: { Z: "1" } },
        undefined,
        { set: { A: "x", M: { fromEnvironment: "Q" } } },
      ],
      linux,
    );
    expect(names).toEqual(["A", "B", "M", "Z"]);
    expect(environmentNames([{ remove: ["Path"] }, { set: { PATH: "x" } }], "win32")).toEqual([
      "Path",
    ]);
  });
});

describe("through loadCatalog", () => {
  it("applies the layers to each program and reports environmentNames", async () => {
    const manifest = {
      version: 2,
      searchPath: ["/bin", "/usr/bin"],
      environment: {
        remove: ["DROP"],
        set: { GLOBAL: "g", OPT: { fromEnvironment: "NOPE", required: false } },
      },
      programs: {
        sh: {
          candidates: ["sh"],
          environment: { remove: ["GLOBAL"], set: { OWN: { fromEnvironment: "SRC" } } },
        },
        env: { candidates: ["env"] },
        off: {
          candidates: ["off"],
          enabled: false,
          environment: { set: { IGNORED: { fromEnvironment: "ABSENT" } } },
        },
      },
    };
    const startupEnv = { DROP: "x", SRC: "src", OPT: "inherited", KEEP: "k" };
    const catalog = await loadCatalog({ manifest, startupEnv, platform: linux });
    expect(catalog.globalEnv).toEqual({
      PATH: "/bin:/usr/bin",
      GLOBAL: "g",
      SRC: "src",
      KEEP: "k",
    });
    expect(catalog.programs.get("sh")?.env).toEqual({
      PATH: "/bin:/usr/bin",
      OWN: "src",
      SRC: "src",
      KEEP: "k",
    });
    expect(catalog.programs.get("env")?.env).toEqual(catalog.globalEnv);
    expect(catalog.environmentNames).toEqual(["DROP", "GLOBAL", "OPT", "OWN"]);
  });

  it("stops startup with MISSING_ENVIRONMENT_REFERENCE", async () => {
    const manifest = {
      version: 2,
      programs: {
        sh: { candidates: ["/bin/sh"], environment: { set: { T: { fromEnvironment: "ABSENT" } } } },
      },
    };
    await expect(loadCatalog({ manifest, startupEnv: {}, platform: linux })).rejects.toMatchObject({
      code: "MISSING_ENVIRONMENT_REFERENCE",
    });
  });
});
