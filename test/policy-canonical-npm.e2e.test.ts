// Issue 22's npm attacks against the real server and real npm (SPEC §21.1): "npm, but never
// publish" holds for an abbreviation (`npm pub`) and for a shell line given to `exec -c`, which
// no argv rule can read (decided by the strictest rule). npm runs offline with a dead registry and
// --dry-run, its cache and config inside the attack directory. As root and as uid 65534.

import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, giveTo, identities, type AttackDir } from "./helpers/identity.js";
import { errorText, startServer, writeManifest, type TestServer } from "./helpers/server.js";

/** The rule docs' example (docs/rules-and-audit.md). */
const NEVER_PUBLISH = [
  {
    match: { contains: [["publish", "unpublish", "deprecate"]] },
    decision: "deny",
    reason: "publishing happens in CI, never from an agent",
  },
];

const PACKAGE = { name: "scm-rules-attack-pkg", version: "1.0.0" };

describe.each(identities())("npm rules as $name", (identity) => {
  let attack: AttackDir;
  let pkg: string;
  let server: TestServer;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-rules-npm-");
    pkg = attack.mkdir("pkg");
    writeFileSync(path.join(pkg, "package.json"), JSON.stringify(PACKAGE));
    giveTo(identity, path.join(pkg, "package.json"));
    const npmDir = attack.mkdir("home/.npm");
    const manifest = writeManifest(attack.dir, {
      version: 2,
      searchPath: [path.dirname(process.execPath), "/usr/bin", "/bin"],
      environment: {
        set: {
          NPM_CONFIG_CACHE: path.join(npmDir, "cache"),
          NPM_CONFIG_USERCONFIG: path.join(npmDir, "npmrc"),
          NPM_CONFIG_OFFLINE: "true",
          NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
          NPM_CONFIG_UPDATE_NOTIFIER: "false",
          NPM_CONFIG_AUDIT: "false",
          NPM_CONFIG_FUND: "false",
        },
      },
      programs: { npm: { candidates: ["/usr/bin/npm"], rules: NEVER_PUBLISH } },
    });
    server = await startServer({
      args: ["--manifest", manifest, "--root", pkg, "--artifact-dir", path.join(attack.dir, "a")],
      env: attack.env(),
      runAs: identity,
    });
  });

  afterAll(async () => {
    await server?.close();
    attack?.remove();
  });

  const npm = (args: string[]) =>
    server.call("system_exec", { program: "npm", args, cwd: pkg, timeoutMs: 60_000 });

  it("runs npm pack --dry-run, so the refusals below are not the setup failing", async () => {
    const result = await npm(["pack", "--dry-run"]);
    expect(result.isError, errorText(result)).toBe(false);
    const content = result.structuredContent as Record<string, any>;
    expect(content.exitCode, content.stderr?.text).toBe(0);
    expect(content.stdout.text).toContain(`${PACKAGE.name}-${PACKAGE.version}.tgz`);
  });

  it.each([
    [["pub", "--dry-run"]],
    [["--loglevel", "warn", "publi", "--dry-run"]],
    [["exec", "--", "npm", "pub", "--dry-run"]],
  ])("denies publish spelled %j", async (args) => {
    const result = await npm(args);
    expect(errorText(result)).toMatch(
      /^ARGUMENTS_DENIED: npm: .*rule 0 of the manifest \("publishing happens/,
    );
    expect(result.structuredContent).toBeUndefined();
  });

  it.each([[["exec", "-c", "npm publish --dry-run"]], [["x", "--call=npm publish --dry-run"]]])(
    "denies a shell line given to exec, %j, by the strictest rule",
    async (args) => {
      const result = await npm(args);
      expect(errorText(result)).toMatch(
        /^ARGUMENTS_DENIED: npm: .*rule 0 .*the strictest rule decides because npm exec runs a shell line/,
      );
    },
  );
});
