// Automatic Discovery Mode (SPEC §3.2, §10): the fixed program set on the inherited PATH.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUTOMATIC_PROGRAMS, BACKGROUND_PROGRAMS } from "../src/programs/automatic.js";
import { loadCatalog } from "../src/programs/load-catalog.js";
import { effectivePolicy } from "../src/programs/policy.js";
import { tempTreePerTest, writeExecutable } from "./manifest-fixtures.js";

const tree = tempTreePerTest();

describe("automatic discovery", () => {
  it("registers the fixed set found on the inherited PATH, none required, default policies", async () => {
    const one = tree.dir();
    const two = tree.dir();
    for (const name of ["git", "python", "rg", "bash", "pwsh", "node", "npx"]) {
      writeExecutable(one, name);
    }
    writeExecutable(two, "python3");
    writeExecutable(two, "git");
    const startupEnv = { PATH: `${one}::${two}:`, SECRET: "x", UNSET: undefined };
    const catalog = await loadCatalog({ startupEnv, platform: "linux" });
    expect(catalog.mode).toBe("automatic-discovery");
    expect([...catalog.programs.keys()]).toEqual(["git", "node", "npx", "python", "ripgrep"]);
    expect(catalog.programs.get("python")).toMatchObject({
      declaredCandidate: "python3",
      spawnPath: path.join(two, "python3"),
    });
    expect(catalog.programs.get("ripgrep")).toMatchObject({
      declaredCandidate: "rg",
      spawnPath: path.join(one, "rg"),
    });
    for (const [name, program] of catalog.programs) {
      expect(program.required).toBe(false);
      // §10: the JS/Python runtimes and package managers may run in the background.
      const background = ["node", "npx", "python"].includes(name);
      expect(program.policy, name).toEqual({
        ...effectivePolicy(undefined),
        allowBackground: background,
      });
      expect(program.pathDiffers).toBe(false);
      expect(program.env).toEqual({ PATH: startupEnv.PATH, SECRET: "x" });
    }
    expect(catalog.globalPath).toEqual([one, two]);
    expect(catalog.environmentNames).toEqual([]);
    expect(catalog.globalEnv).toEqual({ PATH: startupEnv.PATH, SECRET: "x" });
    expect(catalog.probes).toEqual({});
    expect(catalog.manifestVersion).toBeUndefined();
    expect(catalog.details.map((detail) => detail.name)).toEqual(
      AUTOMATIC_PROGRAMS.map((entry) => entry.name),
    );
    expect(AUTOMATIC_PROGRAMS.map((entry) => entry.name)).toEqual([
      "git",
      "node",
      "npm",
      "npx",
      "pnpm",
      "yarn",
      "bun",
      "python",
      "ripgrep",
    ]);
    expect([...BACKGROUND_PROGRAMS].sort()).toEqual([
      "bun",
      "node",
      "npm",
      "npx",
      "pnpm",
      "python",
      "yarn",
    ]);
    expect(catalog.details[0]?.shadowed).toEqual([path.join(two, "git")]);
  });

  it("never includes a shell or PowerShell", () => {
    const names = AUTOMATIC_PROGRAMS.flatMap((entry) => [entry.name, ...entry.candidates]);
    for (const shell of ["sh", "bash", "zsh", "cmd", "pwsh", "powershell"])
      expect(names).not.toContain(shell);
  });

  it("registers nothing, without failing, when nothing is found", async () => {
    const catalog = await loadCatalog({ startupEnv: {}, platform: "linux" });
    expect(catalog.programs.size).toBe(0);
    expect(catalog.globalPath).toEqual([]);
  });
});
