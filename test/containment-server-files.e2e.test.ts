// SPEC §20.1 items 1, 2 and 8 as attacks through the real server and real bubblewrap, as root and
// as uid 65534, with HOME (and so the server's state and artifact directories) outside /tmp and
// the Root being HOME: a confined program — workspace-write or full — cannot edit or replace the
// manifest, and cannot produce a usable approval (not by running `approve --yes` inside, not by
// writing an approval file, not by renaming the state directory's parents and planting one). The
// same attacks run from a read-only program whose writablePaths hold those files (HOME), so that a
// protection computed from the Roots alone is caught.
// (Startup refusals: containment-startup.e2e.test.ts.)

import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  nodeProgram,
  shProgram,
  startContained,
  type ContainedServer,
} from "./helpers/containment.js";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";
import { CLI_ENTRY, errorText } from "./helpers/server.js";
import { ASK_RULE } from "./policy-helpers.js";

/** How long a planted approval claims to be valid. */
const PLANTED_VALIDITY_MS = 3_600_000;

describe.runIf(requireBwrapInCi())("the server's files (§20.1 item 2)", () => {
  describe.each(identities())("server as $name", (identity) => {
    let attack: AttackDir;
    let contained: ContainedServer;
    let home: string;
    let stateDir: string;
    let manifestText: string;

    beforeAll(async () => {
      attack = attackDir(identity);
      home = attack.home;
      stateDir = path.join(home, ".local/state/system-command-mcp");
      const conf = attack.mkdir("home/conf");
      contained = await startContained({
        identity,
        attack,
        manifestDir: conf,
        roots: [home],
        programs: {
          true: { candidates: ["/bin/true"], rules: [ASK_RULE], sandbox: null },
          "sh-workspace": shProgram({ filesystem: "workspace-write" }),
          "sh-full": shProgram({ filesystem: "full" }),
          "node-workspace": nodeProgram({ filesystem: "workspace-write" }),
          "node-full": nodeProgram({ filesystem: "full" }),
          // read-only, but HOME (with the manifest, the state and artifact directories) writable
          // through writablePaths: the server's files lie in a writable path that is not a Root.
          "sh-read-only-writable": shProgram({ filesystem: "read-only", writablePaths: [home] }),
          "node-read-only-writable": nodeProgram({
            filesystem: "read-only",
            writablePaths: [home],
          }),
        },
      });
      manifestText = readFileSync(contained.manifestPath, "utf8");
    });

    afterAll(async () => {
      await contained?.server.close();
      attack?.remove();
    });

    /** A new pending approval for `true --ask` in HOME; its id. */
    async function requireApproval(): Promise<string> {
      const result = await contained.server.call("system_exec", {
        program: "true",
        args: ["--ask"],
        cwd: home,
      });
      const id = /approval id ([0-9a-f]{32})/.exec(errorText(result))?.[1];
      expect(id, errorText(result)).toBeDefined();
      return id!;
    }

    /** The pending record of `id` turned into an approved one (what an attacker would plant). */
    function approvedRecord(id: string): string {
      const file = path.join(stateDir, "approvals", `${id}.json`);
      const record = JSON.parse(readFileSync(file, "utf8"));
      const now = Date.now();
      record.status = "approved";
      record.decidedAt = new Date(now).toISOString();
      record.expiresAt = new Date(now + PLANTED_VALIDITY_MS).toISOString();
      return JSON.stringify(record);
    }

    /** The later call with the approval id: it must still be refused as not approved. */
    async function expectStillRequired(id: string): Promise<void> {
      const result = await contained.server.call("system_exec", {
        program: "true",
        args: ["--ask"],
        cwd: home,
        approvalId: id,
      });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toMatch(/^APPROVAL_REQUIRED: /);
    }

    it("the state and artifact directories exist (0700) before any confined run", () => {
      for (const dir of [stateDir, path.join(home, ".cache/system-command-mcp")]) {
        expect(statSync(dir).isDirectory()).toBe(true);
        expect(statSync(dir).mode & 0o777).toBe(0o700);
      }
    });

    it.each(["sh-workspace", "sh-full", "sh-read-only-writable"])(
      "%s: the manifest cannot be edited, nor its directory renamed and replaced",
      async (program) => {
        const run = await contained.sh(
          program,
          "echo '{}' >> conf/manifest.json; mv conf conf-away && mkdir conf && echo '{}' > conf/manifest.json",
          home,
        );
        expect(run.exitCode).not.toBe(0);
        expect(run.stderr).toMatch(/Read-only file system/);
        expect(run.stderr).toMatch(/Device or resource busy/);
        expect(readFileSync(contained.manifestPath, "utf8")).toBe(manifestText);
        expect(existsSync(path.join(home, "conf-away"))).toBe(false);
      },
    );

    it.each(["node-workspace", "node-full"])(
      "%s: running `approve --yes <id>` inside the sandbox does not approve",
      async (program) => {
        const id = await requireApproval();
        const script =
          `const { spawnSync } = require("child_process");` +
          `const run = spawnSync(process.execPath, [${JSON.stringify(CLI_ENTRY)}, "approve", "--yes", ${JSON.stringify(id)}],` +
          ` { env: { ...process.env, HOME: ${JSON.stringify(home)}, XDG_STATE_HOME: ${JSON.stringify(path.dirname(stateDir))} }, encoding: "utf8" });` +
          `console.log(run.status); console.error(run.stderr)`;
        const run = await contained.node(program, script, home);
        expect(run.exitCode, run.stderr).toBe(0);
        expect(run.stdout.trim()).not.toBe("0");
        await expectStillRequired(id);
      },
    );

    it.each(["node-workspace", "node-full", "node-read-only-writable"])(
      "%s: writing an approved record into the state directory does not approve",
      async (program) => {
        const id = await requireApproval();
        const target = path.join(stateDir, "approvals", `${id}.json`);
        const script =
          `try { require("fs").writeFileSync(${JSON.stringify(target)}, ${JSON.stringify(approvedRecord(id))}); console.log("written") }` +
          ` catch (error) { console.log(error.code) }`;
        const run = await contained.node(program, script, home);
        expect(run.stdout.trim()).toMatch(/^E(ROFS|ACCES|NOENT)$/);
        await expectStillRequired(id);
      },
    );

    it.each(["node-workspace", "node-full", "node-read-only-writable"])(
      "%s: renaming the state directory's parents and planting an approval does not approve",
      async (program) => {
        const id = await requireApproval();
        const planted = approvedRecord(id);
        const states = path.dirname(stateDir);
        const script = `
          const fs = require("fs"), path = require("path");
          const steps = [];
          for (const dir of [${JSON.stringify(states)}, ${JSON.stringify(path.dirname(states))}]) {
            try { fs.renameSync(dir, dir + "-away"); steps.push("renamed " + path.basename(dir)); break; }
            catch (error) { steps.push(error.code); }
          }
          try {
            fs.mkdirSync(${JSON.stringify(path.join(stateDir, "approvals"))}, { recursive: true });
            fs.writeFileSync(${JSON.stringify(path.join(stateDir, "approvals", `${id}.json`))}, ${JSON.stringify(planted)});
            steps.push("planted");
          } catch (error) { steps.push(error.code); }
          console.log(steps.join(" "));`;
        const run = await contained.node(program, script, home);
        expect(run.stdout).not.toMatch(/renamed|planted/);
        expect(run.stdout.trim()).toMatch(/^EBUSY EBUSY E(ROFS|EXIST|ACCES|NOENT)$/);
        expect(existsSync(`${path.dirname(stateDir)}-away`)).toBe(false);
        await expectStillRequired(id);
      },
    );
  });
});

describe.runIf(requireBwrapInCi())(
  "the audit log and its seal in a writable Root (§20.1 item 2)",
  () => {
    describe.each(identities())("server as $name", (identity) => {
      let attack: AttackDir;
      let contained: ContainedServer;
      let log: string;
      let key: string;

      beforeAll(async () => {
        attack = attackDir(identity);
        log = path.join(attack.home, "audit.jsonl");
        // The real seal (§22.1), made by the identity as an administrator would.
        const sealed = attack.run(process.execPath, [CLI_ENTRY, "audit", "seal", log]);
        expect(sealed.status, sealed.stderr).toBe(0);
        key = /[0-9a-f]{64}/.exec(sealed.stdout)![0];
        contained = await startContained({
          identity,
          attack,
          roots: [attack.home],
          extra: ["--audit-log", log],
          programs: {
            "sh-workspace": shProgram({ filesystem: "workspace-write" }),
            "sh-full": shProgram({ filesystem: "full" }),
          },
        });
      });

      afterAll(async () => {
        await contained?.server.close();
        attack?.remove();
      });

      it.each(["sh-workspace", "sh-full"])(
        "%s: the audit log and its seal are hidden, and cannot be written or removed",
        async (program) => {
          const script =
            "cat audit.jsonl audit.jsonl.seal; echo forged >> audit.jsonl.seal; " +
            "rm -f audit.jsonl audit.jsonl.seal; echo forged >> audit.jsonl";
          const run = await contained.sh(program, script, attack.home);
          expect(run.exitCode).not.toBe(0);
          expect(run.stdout).toBe("");
          expect(run.stderr).toMatch(/Read-only file system|Device or resource busy/);
          expect(readFileSync(`${log}.seal`, "utf8")).not.toContain("forged");
          expect(readFileSync(log, "utf8")).not.toContain("forged");
          // The log and its seal state are still the server's own: they verify under the key.
          const verify = attack.run(process.execPath, [
            CLI_ENTRY,
            "audit",
            "verify",
            log,
            "--key",
            key,
          ]);
          expect(verify.status, verify.stdout + verify.stderr).toBe(0);
          expect(readFileSync(log, "utf8").length).toBeGreaterThan(0);
        },
      );
    });
  },
);
