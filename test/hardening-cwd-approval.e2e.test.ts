// A program starts exactly in the directory that was authorised, across an approval wait (SPEC
// §20.1 item 7, §21.1): the client answers the elicitation only after the test, as the attacker,
// has replaced the cwd or one of its parents. Deterministic — no race. Confined and unconfined, as
// root and as uid 65534, in directories outside /tmp. Every swap must end in CWD_CHANGED with
// nothing of the program run (it would write a marker file first).

import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  attackDir,
  attackServeArgs,
  giveTo,
  identities,
  type AttackDir,
} from "./helpers/identity.js";
import { CLI_ENTRY, withFullDetail } from "./helpers/server.js";
import { startPolicyServer, textOf, type PolicyClient } from "./policy-helpers.js";

/** Writes the marker (so a run cannot go unnoticed), then reports where it really runs. */
const REPORT = 'echo ran > "$1"; pwd -P; stat -c %d:%i .';

const ASK = [{ match: { prefix: ["-c"] }, decision: "ask", reason: "a human says where" }];

/** The attacker's swaps, each given the case's directories; run as the attack identity. */
interface Layout {
  base: string;
  parent: string;
  cwd: string;
  other: string;
  outside: string;
}
const SWAPS: Record<string, (l: Layout) => string> = {
  "cwd swapped for another directory inside the Root (rename)": (l) =>
    `mv "${l.cwd}" "${l.cwd}.old" && mv "${l.other}" "${l.cwd}"`,
  "cwd swapped for a symlink to another directory inside the Root": (l) =>
    `mv "${l.cwd}" "${l.cwd}.old" && ln -s "${l.other}" "${l.cwd}"`,
  "cwd swapped for a symlink leading outside every Root": (l) =>
    `mv "${l.cwd}" "${l.cwd}.old" && ln -s "${l.outside}" "${l.cwd}"`,
  "parent swapped for a symlink leading outside every Root": (l) =>
    `mv "${l.parent}" "${l.parent}.old" && ln -s "${path.dirname(l.outside)}" "${l.parent}"`,
  "cwd moved out of every Root": (l) => `mv "${l.cwd}" "${l.outside}.moved"`,
  // The cwd's own inode stays the same and its old path still leads to it: only the Root check
  // after the wait can see that it now lies outside every Root.
  "parent moved out of every Root, a symlink left at its old path": (l) => {
    const moved = path.join(path.dirname(path.dirname(l.outside)), "moved");
    return `mv "${l.parent}" "${moved}" && ln -s "${moved}" "${l.parent}"`;
  },
};

const VARIANTS = [
  { name: "unconfined", program: "sh" },
  { name: "confined", program: "shc" },
] as const;

describe.each(identities())("approval wait, as $name", (identity) => {
  let attack: AttackDir;
  let root: string;
  let server: PolicyClient;
  let swap: (() => void) | undefined;
  let cases = 0;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-cwd-approval-");
    root = attack.mkdir("root");
    attack.mkdir("outside");
    const args = attackServeArgs(
      attack,
      {
        version: 2,
        programs: {
          sh: { candidates: ["/bin/sh"], rules: ASK },
          shc: {
            candidates: ["/bin/sh"],
            rules: ASK,
            sandbox: { filesystem: "workspace-write" },
          },
        },
      },
      root,
    );
    server = await startPolicyServer({
      args: [],
      env: attack.env(),
      command: identity.wrap(process.execPath, [CLI_ENTRY, "serve", ...withFullDetail(args)]),
      elicitation: async () => {
        swap?.();
        return { action: "accept", content: { decision: "run" } };
      },
    });
  });

  afterAll(async () => {
    await server?.close();
    attack?.remove();
  });

  /** A fresh layout: <root>/cN/p/work (the cwd), <root>/cN/other, <outside>/cN/p/work. */
  function layout(): Layout {
    cases += 1;
    const base = path.join(root, `c${cases}`);
    const outsideBase = path.join(attack.dir, "outside", `c${cases}`);
    for (const dir of [path.join(base, "p", "work"), path.join(base, "other")]) {
      mkdirSync(dir, { recursive: true });
    }
    mkdirSync(path.join(outsideBase, "p", "work"), { recursive: true });
    giveTo(identity, base);
    giveTo(identity, outsideBase);
    return {
      base,
      parent: path.join(base, "p"),
      cwd: path.join(base, "p", "work"),
      other: path.join(base, "other"),
      outside: path.join(outsideBase, "p", "work"),
    };
  }

  const call = (program: string, l: Layout) =>
    server.call("system_exec", {
      program,
      args: ["-c", REPORT, "sh", path.join(l.base, "marker")],
      cwd: l.cwd,
    });

  describe.each(VARIANTS)("$name", ({ program }) => {
    it("runs in the approved directory when nothing changed", async () => {
      const l = layout();
      const before = statSync(l.cwd, { bigint: true });
      swap = undefined;
      const result = await call(program, l);
      expect(result.isError, textOf(result)).toBeFalsy();
      const stdout = (result.structuredContent as any).stdout.text.split("\n");
      expect(stdout[0]).toBe(l.cwd);
      expect(stdout[1]).toBe(`${before.dev}:${before.ino}`);
      expect(existsSync(path.join(l.base, "marker"))).toBe(true);
    });

    it.each(Object.entries(SWAPS))("%s: CWD_CHANGED, nothing runs", async (_name, script) => {
      const l = layout();
      swap = () => {
        const done = attack.run("/bin/sh", ["-c", script(l)]);
        if (done.status !== 0) throw new Error(`the swap failed: ${done.stderr}`);
      };
      const result = await call(program, l);
      const text = textOf(result);
      expect(result.isError, text).toBe(true);
      expect(text).toMatch(/^CWD_CHANGED: /);
      expect(result.structuredContent).toBeUndefined();
      expect(existsSync(path.join(l.base, "marker"))).toBe(false);
    });
  });
});
