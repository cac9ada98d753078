// The attack identities (helpers/identity.ts) really are what they say: the server started as the
// unprivileged identity runs its programs as that uid, with HOME outside /tmp.

import path from "node:path";
import { describe, expect, it } from "vitest";
import { attackDir, identities } from "./helpers/identity.js";
import { startServer, writeManifest } from "./helpers/server.js";

describe.each(identities())("attack identity $name", (identity) => {
  it("runs the server and its programs as that identity, with HOME outside /tmp", async () => {
    const attack = attackDir(identity);
    try {
      const root = attack.mkdir("root");
      const manifest = writeManifest(attack.dir, {
        version: 2,
        searchPath: ["/usr/bin", "/bin"],
        programs: { id: { candidates: ["id"] } },
      });
      const server = await startServer({
        args: [
          "--manifest",
          manifest,
          "--root",
          root,
          "--artifact-dir",
          path.join(attack.dir, "a"),
        ],
        env: attack.env(),
        runAs: identity,
      });
      try {
        const result = await server.exec({ program: "id", args: ["-u"] });
        const expected = identity.uid ?? process.getuid!();
        expect(result.stdout.text.trim()).toBe(String(expected));
        expect(attack.home.startsWith("/tmp/")).toBe(false);
      } finally {
        await server.close();
      }
    } finally {
      attack.remove();
    }
  });
});
