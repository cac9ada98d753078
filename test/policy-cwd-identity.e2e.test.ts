// Approvals bind the directory, not its name (SPEC §21.1, issue 22): an approval granted for a
// cwd is not valid for another directory that later sits at the same path, and is valid again
// once the approved directory is back. As root and as an unprivileged user.

import { renameSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attackDir, identities, startServerAs, type AttackDir } from "./helpers/identity.js";
import { CLI_ENTRY, errorText, type TestServer } from "./helpers/server.js";
import { approvalIdOf, ASK_RULE } from "./policy-helpers.js";

describe.each(identities())("an approval's cwd as $name", (identity) => {
  let attack: AttackDir;
  let root: string;
  let server: TestServer;

  beforeAll(async () => {
    attack = attackDir(identity, "scm-rules-cwd-");
    root = attack.mkdir("root");
    const manifest = {
      version: 2,
      searchPath: ["/usr/bin", "/bin"],
      programs: {
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

  it("is refused for another directory renamed to the approved path", async () => {
    const work = attack.mkdir("root/work");
    const call = (approvalId?: string) =>
      server.call("system_exec", {
        program: "true",
        args: ["--ask"],
        cwd: work,
        ...(approvalId !== undefined && { approvalId }),
      });
    const id = approvalIdOf(errorText(await call()));
    const approve = attack.run(process.execPath, [CLI_ENTRY, "approve", "--yes", id]);
    expect(approve.status, approve.stderr).toBe(0);

    // The approved directory moves away; another one takes its path.
    renameSync(work, path.join(root, "approved"));
    attack.mkdir("root/work");
    const swapped = await call(id);
    expect(errorText(swapped)).toMatch(
      /^APPROVAL_REQUIRED: true: .*was granted for a different program, arguments, cwd or manifest/,
    );

    // The approved directory back at its path: the same approval runs, once.
    renameSync(work, path.join(root, "impostor"));
    renameSync(path.join(root, "approved"), work);
    const back = await call(id);
    expect(back.isError, errorText(back)).toBe(false);
    expect((back.structuredContent as Record<string, any>).exitCode).toBe(0);
  });
});
