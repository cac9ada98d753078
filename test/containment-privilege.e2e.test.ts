// SPEC §20.1 items 3 and 8 as attacks through the real server and real bubblewrap, as root and as
// uid 65534: a confined tree holds no capability in any set (also as root) and cannot gain one,
// and /proc/sys, /proc/sysrq-trigger, /proc/irq and /proc/bus are read-only in every mode. Nothing
// here writes to /proc: the attack only opens core_pattern for writing and closes it at once.

import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startContained,
  nodeProgram,
  shProgram,
  type ContainedServer,
} from "./helpers/containment.js";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";

const MODES = ["read-only", "workspace-write", "full"] as const;

/** The capability sets and no_new_privs of the process reading /proc/self/status. */
const STATUS_SCRIPT =
  "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status";

/** The kernel's writable knobs below /proc that must be read-only inside. */
const PROC_KNOBS = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"];

/**
 * Prints, for each knob that exists, whether its mount inside is read-only (mountinfo), and the
 * errno of opening core_pattern O_WRONLY (closed at once, nothing written).
 */
const PROC_SCRIPT = `
const fs = require("fs");
const lines = fs.readFileSync("/proc/self/mountinfo", "utf8").split("\\n");
const out = {};
for (const knob of ${JSON.stringify(PROC_KNOBS)}) {
  if (!fs.existsSync(knob)) continue;
  const mount = lines.filter((l) => l.split(" ")[4] === knob).pop();
  out[knob] = mount ? mount.split(" ")[5].split(",").includes("ro") : "not a mount";
}
let open = "opened";
try { fs.closeSync(fs.openSync("/proc/sys/kernel/core_pattern", fs.constants.O_WRONLY)); }
catch (error) { open = error.code; }
out.corePattern = open;
console.log(JSON.stringify(out));
`;

describe.runIf(requireBwrapInCi())("no privilege inside the sandbox (§20.1 item 3)", () => {
  describe.each(identities())("server as $name", (identity) => {
    let attack: AttackDir;
    let contained: ContainedServer;
    let root: string;

    beforeAll(async () => {
      attack = attackDir(identity);
      root = attack.mkdir("root");
      const programs: Record<string, unknown> = {};
      for (const mode of MODES) {
        programs[`sh-${mode}`] = shProgram({ filesystem: mode });
        programs[`node-${mode}`] = nodeProgram({ filesystem: mode });
      }
      contained = await startContained({ identity, attack, programs, roots: [root] });
    });

    afterAll(async () => {
      await contained?.server.close();
      attack?.remove();
    });

    it.each(MODES)("%s: every capability set is empty and no_new_privs is set", async (mode) => {
      const run = await contained.sh(`sh-${mode}`, STATUS_SCRIPT, root);
      expect(run.exitCode, run.stderr).toBe(0);
      const fields = Object.fromEntries(
        run.stdout
          .trim()
          .split("\n")
          .map((line) => line.split(/:\s*/)),
      );
      expect(fields).toEqual({
        CapInh: "0000000000000000",
        CapPrm: "0000000000000000",
        CapEff: "0000000000000000",
        CapBnd: "0000000000000000",
        CapAmb: "0000000000000000",
        NoNewPrivs: "1",
      });
    });

    it.each(MODES)("%s: /proc/sys and the other kernel knobs are read-only", async (mode) => {
      const run = await contained.node(`node-${mode}`, PROC_SCRIPT, root);
      expect(run.exitCode, run.stderr).toBe(0);
      const seen = JSON.parse(run.stdout);
      const expected: Record<string, unknown> = {};
      for (const knob of PROC_KNOBS) if (existsSync(knob)) expected[knob] = true;
      // Read-only mount: EROFS for root; uid 65534 is refused by the file's mode first.
      expected.corePattern =
        identity.name === "root" ? "EROFS" : expect.stringMatching(/^E(ROFS|ACCES)$/);
      expect(seen).toEqual(expected);
    });
  });
});
