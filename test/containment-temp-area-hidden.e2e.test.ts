// The server's per-user sandbox temp area (every confined execution's private /tmp lies in it) is
// hidden from every sandbox, `filesystem: "full"` included, which shares the host's filesystem:
// a `full` program that lists the area sees nothing, and its writes into the area or into another
// execution's directory there change nothing on the host. Real server, real bubblewrap, as root
// and as uid 65534, with the server's temp directory (so the area) outside /tmp.
//
// Guards the launcher's `serverHidden` including the temp area: with it left out, the listing
// shows the executions' directories and the writes land.

import { existsSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shProgram, startContained, type ContainedServer } from "./helpers/containment.js";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";

/** The area's name below the server's temp directory (confinement/constants.ts). */
const AREA_PREFIX = "system-command-mcp-sandbox-";
/** What an attacker writes. */
const PLANTED = "planted-by-full";

describe.runIf(requireBwrapInCi())("the sandbox temp area is hidden from a full program", () => {
  describe.each(identities())("server as $name", (identity) => {
    let attack: AttackDir;
    let contained: ContainedServer;
    let area: string;
    let root: string;

    beforeAll(async () => {
      attack = attackDir(identity, "scm-temp-area-");
      root = attack.mkdir("root");
      const serverTmp = attack.mkdir("tmp");
      area = path.join(
        realpathSync(serverTmp),
        `${AREA_PREFIX}${identity.uid ?? process.getuid!()}`,
      );
      contained = await startContained({
        identity,
        attack,
        roots: [root],
        env: { TMPDIR: serverTmp },
        programs: {
          full: shProgram({ filesystem: "full" }),
          confined: shProgram({ filesystem: "workspace-write" }),
        },
      });
      // A confined run first, so the area holds execution directories (its own spare at least).
      const warm = await contained.sh("confined", "echo warm > /tmp/mine", root);
      expect(warm.exitCode).toBe(0);
    });

    afterAll(async () => {
      await contained?.server.close();
      attack?.remove();
    });

    it("the area exists on the host and holds execution directories (the control)", () => {
      expect(existsSync(area)).toBe(true);
      expect(readdirSync(area).length).toBeGreaterThan(0);
    });

    it("a full program lists nothing in the area", async () => {
      const listed = await contained.sh("full", `ls -A '${area}'; echo "exit=$?"`, root);
      expect(listed.exitCode).toBe(0);
      expect(listed.stdout).toBe("exit=0\n");
    });

    it("a full program's writes into the area and into an execution directory change nothing", async () => {
      const hostEntries = readdirSync(area);
      const target = path.join(area, hostEntries[0]!);
      const script =
        `echo x > '${area}/${PLANTED}' 2>/dev/null && echo wrote-area; ` +
        `mkdir '${target}' 2>/dev/null; echo x > '${target}/${PLANTED}' 2>/dev/null && echo wrote-dir; true`;
      const attempt = await contained.sh("full", script, root);
      expect(attempt.exitCode).toBe(0);
      expect(attempt.stdout).toBe("");
      expect(existsSync(path.join(area, PLANTED))).toBe(false);
      expect(existsSync(path.join(target, PLANTED))).toBe(false);
    });
  });
});
