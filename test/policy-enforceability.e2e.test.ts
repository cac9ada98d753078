// Whether the rules can hold (SPEC §21.1, issue 22): an unconfined code-running program can grant
// its own approvals, so the server says the rules are advisory — in system_environment.policy,
// in doctor and once on stderr — and rulesEnforcement "strict" refuses to start unless every
// code-running program is confined with network "deny".

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-helpers.js";
import { attackDir, identities, startServerAs, type AttackDir } from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";
import {
  CLI_ENTRY,
  configuredArgs,
  defaultManifest,
  errorText,
  removeDir,
  tempDir,
  type TestServer,
} from "./helpers/server.js";
import {
  approvalIdOf,
  ASK_RULE,
  guardedManifest,
  startPolicyServer,
  stateEnv,
} from "./policy-helpers.js";

const ADVISORY_LINE = /warning: argument rules are advisory: node, sh can run code/g;

async function environmentPolicy(args: string[], env: Record<string, string>) {
  const server = await startPolicyServer({ args, env });
  try {
    const report = (await server.call("system_environment")).structuredContent as Record<
      string,
      any
    >;
    return { policy: report.policy, stderr: server.stderr() };
  } finally {
    await server.close();
  }
}

describe("advisory rules are reported", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => {
    if (dir) removeDir(dir);
  });

  it("names the unconfined code-running programs in system_environment and once on stderr", async () => {
    const { policy, stderr } = await environmentPolicy(
      configuredArgs(dir, guardedManifest()),
      stateEnv(dir),
    );
    expect(policy).toEqual({
      rulesEnforcement: "advisory",
      rulesEnforceable: false,
      advisoryBecause: ["node", "sh"],
    });
    expect(stderr.match(ADVISORY_LINE)).toHaveLength(1);
  });

  it("is enforceable with no rules at all, and says nothing", async () => {
    const { policy, stderr } = await environmentPolicy(
      configuredArgs(dir, defaultManifest()),
      stateEnv(dir),
    );
    expect(policy).toEqual({
      rulesEnforcement: "advisory",
      rulesEnforceable: true,
      advisoryBecause: [],
    });
    expect(stderr).not.toMatch(/advisory/);
  });

  it("takes runsCode from the manifest over the built-in list", async () => {
    const manifest = guardedManifest();
    manifest.programs.sh.runsCode = false;
    manifest.programs.cat.runsCode = true;
    const { policy } = await environmentPolicy(configuredArgs(dir, manifest), stateEnv(dir));
    expect(policy.advisoryBecause).toEqual(["cat", "node"]);
  });

  it("doctor prints the warning and reports the policy in --json", () => {
    const args = configuredArgs(dir, guardedManifest());
    const text = runCli(["doctor", ...args], { env: stateEnv(dir) });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/- argument rules are advisory: node, sh can run code/);
    const json = runCli(["doctor", "--json", ...args], { env: stateEnv(dir) });
    expect(JSON.parse(json.stdout).policy).toEqual({
      rulesEnforcement: "advisory",
      rulesEnforceable: false,
      advisoryBecause: ["node", "sh"],
    });
  });

  it('"strict" refuses to start, naming the programs', () => {
    const run = runCli(
      ["serve", ...configuredArgs(dir, guardedManifest({ rulesEnforcement: "strict" }))],
      {
        env: stateEnv(dir),
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^system-command-mcp: RULES_NOT_ENFORCEABLE: rulesEnforcement is "strict", but node, sh can run code/m,
    );
  });
});

describe('"strict" with every code-running program confined with network "deny"', () => {
  if (!requireBwrapInCi()) return;
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => {
    if (dir) removeDir(dir);
  });

  it("starts and reports the rules as enforceable", async () => {
    const manifest = guardedManifest({ rulesEnforcement: "strict" });
    const confined = { filesystem: "read-only", network: "deny" };
    manifest.programs.node.sandbox = confined;
    manifest.programs.sh.sandbox = confined;
    const { policy, stderr } = await environmentPolicy(
      configuredArgs(dir, manifest),
      stateEnv(dir),
    );
    expect(policy).toEqual({
      rulesEnforcement: "strict",
      rulesEnforceable: true,
      advisoryBecause: [],
    });
    expect(stderr).not.toMatch(/advisory/);
  });

  it("still refuses when a code-running program has network allowed", () => {
    const manifest = guardedManifest({ rulesEnforcement: "strict" });
    manifest.programs.node.sandbox = { filesystem: "read-only", network: "deny" };
    manifest.programs.sh.sandbox = { filesystem: "read-only", network: "allow" };
    const run = runCli(["serve", ...configuredArgs(dir, manifest)], { env: stateEnv(dir) });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/RULES_NOT_ENFORCEABLE: .* but sh can run code/);
  });
});

describe.each(identities())(
  "why: an unconfined node grants its own approval, as $name",
  (identity) => {
    let attack: AttackDir;
    let server: TestServer;
    let root: string;

    beforeAll(async () => {
      attack = attackDir(identity, "scm-rules-self-");
      root = attack.mkdir("root");
      const manifest = {
        version: 2,
        searchPath: [path.dirname(process.execPath), "/usr/bin", "/bin"],
        programs: {
          node: { candidates: [process.execPath] },
          true: {
            candidates: ["true"],
            rules: [ASK_RULE],
          },
        },
      };
      server = await startServerAs(identity, attack, manifest, root);
    });

    afterAll(async () => {
      await server?.close();
      attack?.remove();
    });

    it("succeeds, and the server says so: the rules are advisory because of node", async () => {
      const ask = { program: "true", args: ["--ask"], cwd: root };
      const id = approvalIdOf(errorText(await server.call("system_exec", ask)));
      const approve = await server.exec({
        program: "node",
        args: [CLI_ENTRY, "approve", "--yes", id],
        cwd: root,
      });
      expect(approve.exitCode, approve.stderr?.text).toBe(0);
      const run = await server.call("system_exec", { ...ask, approvalId: id });
      expect(run.isError, errorText(run)).toBe(false);
      const report = (await server.call("system_environment")).structuredContent as Record<
        string,
        any
      >;
      expect(report.policy).toEqual({
        rulesEnforcement: "advisory",
        rulesEnforceable: false,
        advisoryBecause: ["node"],
      });
      expect(server.stderr()).toMatch(/warning: argument rules are advisory: node can run code/);
    });
  },
);
