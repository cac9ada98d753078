// PROGRAM_NOT_REGISTERED tells the administrator how the program gets registered (SPEC §5, §9,
// §10): declared but disabled, declared but not found, not declared — through the real server's
// schema check and through `exec`, in Configured and in Automatic Discovery Mode.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorCode, runCli } from "./cli-helpers.js";
import {
  defaultManifest,
  errorText,
  removeDir,
  shareServer,
  tempDir,
  type TestServer,
} from "./helpers/server.js";

const manifest = (() => {
  const value = defaultManifest() as Record<string, any>;
  value.programs.off = { candidates: ["true"], enabled: false };
  value.programs.missing = { candidates: ["scm-no-such-program"] };
  return value;
})();

let server: TestServer;
let dir: string;
shareServer(manifest, [], (s, d) => ((server = s), (dir = d)));

async function refusal(program: unknown): Promise<string> {
  const result = await server.call("system_exec", { program });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return errorText(result);
}

describe("PROGRAM_NOT_REGISTERED in Configured Mode", () => {
  it("for an undeclared name: add programs.<name> with candidates to the manifest", async () => {
    const text = await refusal("cargo");
    expect(text).toMatch(/^PROGRAM_NOT_REGISTERED: program must be one of the registered programs/);
    expect(text).toContain('got "cargo"');
    expect(text).toContain(
      `An administrator registers it by adding programs.cargo with "candidates" (e.g. ["cargo"]) to ${path.join(dir, "manifest.json")} and restarting the server`,
    );
  });

  it("for a declared but disabled program: it is enabled: false there", async () => {
    expect(await refusal("off")).toContain(
      `It is declared in ${path.join(dir, "manifest.json")} with "enabled": false`,
    );
  });

  it("for a declared program none of whose candidates was found: names them and doctor", async () => {
    const text = await refusal("missing");
    expect(text).toContain("none of its candidates (scm-no-such-program) was found at startup");
    expect(text).toContain("system-command-mcp doctor");
  });

  it("never repeats a name that is not a plain word (nor a huge one) as a manifest key", async () => {
    const text = await refusal("rm -rf /; echo");
    expect(text).toContain("adding programs.<name>");
    const huge = await refusal("x".repeat(100_000));
    expect(huge.length).toBeLessThan(2_000);
  });
});

describe("PROGRAM_NOT_REGISTERED from exec in Automatic Discovery Mode", () => {
  it("names the automatic set and how to register others with a manifest (exit 125)", () => {
    const root = tempDir("scm-unregistered-");
    try {
      const run = runCli(["exec", "--root", root, "cargo", "build"], {
        env: {
          ...process.env,
          XDG_CACHE_HOME: path.join(root, "cache"),
          XDG_STATE_HOME: path.join(root, "state"),
        },
      });
      expect(run.status).toBe(125);
      expect(errorCode(run.stderr)).toBe("PROGRAM_NOT_REGISTERED");
      expect(run.stderr).toContain(
        "Without --manifest (Automatic Discovery Mode) only git, node, npm, npx, pnpm, yarn, bun, python, ripgrep are registered",
      );
      expect(run.stderr).toContain("programs.cargo.candidates");
      expect(run.stderr).toContain('"system-command-mcp init" writes one');
    } finally {
      removeDir(root);
    }
  });
});
