// SPEC §20.1 items 1, 2 and 8 at startup, as root and as uid 65534 outside /tmp: the server
// refuses (SANDBOX_UNAVAILABLE naming the path) arrangements it cannot protect — an unconfined
// program (or the Project Node installations an unconfined node runs) inside a writable path of a
// confined program, and a Root inside a server directory that must be hidden.

import { copyFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { containedManifest, serveOnce, shProgram } from "./helpers/containment.js";
import {
  attackDir,
  giveTo,
  identities,
  type AttackDir,
  type Identity,
} from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";

/** A copy of /bin/true at `dir`/tool, owned by the identity: an unconfined program's executable. */
function toolIn(identity: Identity, dir: string): string {
  const tool = path.join(dir, "tool");
  copyFileSync("/bin/true", tool);
  giveTo(identity, tool);
  return tool;
}

describe.runIf(requireBwrapInCi())(
  "startup refuses what it cannot protect (§20.1 items 1, 2)",
  () => {
    describe.each(identities())("server as $name", (identity) => {
      let attack: AttackDir;

      beforeAll(() => {
        attack = attackDir(identity);
      });

      afterAll(() => attack?.remove());

      it("an unconfined program whose executable lies in a confined program's writable Root", () => {
        const ws = attack.mkdir("ws");
        const tool = toolIn(identity, ws);
        const run = serveOnce(
          identity,
          attack,
          containedManifest({
            tool: { candidates: [tool], sandbox: null },
            sh: shProgram({ filesystem: "workspace-write" }),
          }),
          [ws],
        );
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(
          /SANDBOX_UNAVAILABLE: .*unconfined program tool runs .*\/ws\/tool/,
        );
        expect(run.stderr).toContain("confined program sh");
      });

      it("an unconfined program whose executable lies in a read-only program's writablePaths", () => {
        const cache = attack.mkdir("cache");
        const tool = toolIn(identity, cache);
        const run = serveOnce(
          identity,
          attack,
          containedManifest({
            tool: { candidates: [tool], sandbox: null },
            sh: shProgram({ filesystem: "read-only", writablePaths: [cache] }),
          }),
          [attack.mkdir("elsewhere")],
        );
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(/SANDBOX_UNAVAILABLE: .*\/cache\/tool/);
      });

      it("an unconfined node whose Project Node installations lie in a writable Root", () => {
        const ws = attack.mkdir("pn");
        const installs = attack.mkdir("pn/.nodes");
        const run = serveOnce(
          identity,
          attack,
          containedManifest(
            {
              node: { candidates: [process.execPath], sandbox: null },
              sh: shProgram({ filesystem: "workspace-write" }),
            },
            {
              projectNode: {
                enabledRoots: [ws],
                installationRoots: [installs],
                defaultVersion: "20.1.0",
              },
            },
          ),
          [ws],
        );
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(
          /SANDBOX_UNAVAILABLE: the unconfined program node runs .*\/pn\/\.nodes \(its Project Node installations\)/,
        );
      });

      it("a Root inside the server's state directory cannot be hidden from: refused", () => {
        const inside = attack.mkdir("home/.local/state/system-command-mcp/work");
        const run = serveOnce(
          identity,
          attack,
          containedManifest({ sh: shProgram({ filesystem: "workspace-write" }) }),
          [inside],
        );
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(/SANDBOX_UNAVAILABLE: .*system-command-mcp.* lies inside it/);
      });
    });
  },
);
