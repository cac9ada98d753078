// Argument rules through the real server (SPEC §21): deny by prefix and by contains, deny over
// ask, the rules in system_environment, and nothing spawned for a denied call.

import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  GUARDED_RULES,
  guardedManifest,
  sharePolicyServer,
  textOf,
  type PolicyClient,
} from "./policy-helpers.js";

let dir: string;
let server: PolicyClient;

sharePolicyServer(guardedManifest(), (started, made) => {
  server = started;
  dir = made;
});

describe("deny rules", () => {
  it("denies by prefix with the program, the reason and the 0-based index", async () => {
    const result = await server.call("system_exec", { program: "node", args: ["-p", "1+1"] });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = textOf(result);
    expect(text).toMatch(/^ARGUMENTS_DENIED: node: /);
    expect(text).toContain("rule 0");
    expect(text).toContain('"no printing one-liners"');
  });

  it("denies by contains behind leading global options: git -C d push --force", async () => {
    const result = await server.call("system_exec", {
      program: "git",
      args: ["-C", dir, "push", "--force"],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^ARGUMENTS_DENIED: git: .*rule 1 .*"plain force pushes are never allowed; use --force-with-lease"/,
    );
    // An alternative of the pattern list matches as well.
    const short = await server.call("system_exec", { program: "git", args: ["push", "-f"] });
    expect(textOf(short)).toMatch(/^ARGUMENTS_DENIED: git: .*rule 1/);
  });

  it("matches a rule with prefix and contains only when both hold", async () => {
    const both = await server.call("system_exec", {
      program: "git",
      args: ["push", "origin", "main"],
    });
    expect(textOf(both)).toMatch(
      /^ARGUMENTS_DENIED: git: .*rule 2 .*"nobody pushes to main directly"/,
    );
    // args[0] is not "push": rule 2's prefix fails, so this runs (git status outside a
    // repository exits 128, a normal result).
    const onlyContains = await server.call("system_exec", {
      program: "git",
      args: ["-C", dir, "status", "main"],
    });
    expect(onlyContains.isError).toBe(false);
    expect((onlyContains.structuredContent as Record<string, any>).exitCode).toBe(128);
  });

  it("lets a matching deny win over a matching ask", async () => {
    const result = await server.call("system_exec", {
      program: "node",
      args: ["-p", "--ask-me"],
    });
    expect(textOf(result)).toMatch(/^ARGUMENTS_DENIED: node: .*rule 0/);
  });

  it("spawns nothing for a denied call", async () => {
    const marker = path.join(dir, "denied-marker");
    const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran")`;
    const result = await server.call("system_exec", { program: "node", args: ["-p", script] });
    expect(textOf(result)).toMatch(/^ARGUMENTS_DENIED/);
    expect(existsSync(marker)).toBe(false);
    // The same script without the denied prefix runs, so the marker test can fail.
    const allowed = await server.call("system_exec", { program: "node", args: ["-e", script] });
    expect(allowed.isError).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });

  it("matches whole arguments, case-sensitively, with * inside one argument", async () => {
    // "-P" is not "-p"; "x-p" is not "-p"; "--ask-me" matches "--ask-*" (an ask).
    for (const args of [["-P"], ["-e", "0", "x-p"]]) {
      const result = await server.call("system_exec", {
        program: "node",
        args: ["-e", "0", ...args],
      });
      expect(textOf(result)).not.toMatch(/^ARGUMENTS_DENIED/);
    }
    const ask = await server.call("system_exec", {
      program: "node",
      args: ["-e", "0", "--ask-me"],
    });
    expect(textOf(ask)).toMatch(/^APPROVAL_REQUIRED: node: .*rule 1/);
  });
});

describe("system_environment", () => {
  it("lists each program's rules (policy, not secrets) and audit null when off", async () => {
    const result = await server.call("system_environment");
    const report = result.structuredContent as Record<string, any>;
    expect(report.programs.git.rules).toEqual(GUARDED_RULES.git);
    expect(report.programs.node.rules).toEqual(GUARDED_RULES.node);
    expect(report.programs.cat.rules).toBeUndefined();
    expect(report.audit).toBeNull();
  });
});
