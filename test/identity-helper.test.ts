// The attack identities (helpers/identity.ts) really are what they say: the server started as the
// unprivileged identity runs its programs as that uid, with HOME outside /tmp.

import { describe, expect, it } from "vitest";
import { attackDir, identities, startServerAs } from "./helpers/identity.js";

describe.each(identities())("attack identity $name", (identity) => {
  it("runs the server and its programs as that identity, with HOME outside /tmp", async () => {
    const attack = attackDir(identity);
    try {
      const root = attack.mkdir("root");
      const server = await startServerAs(
        identity,
        attack,
        { version: 2, searchPath: ["/usr/bin", "/bin"], programs: { id: { candidates: ["id"] } } },
        root,
      );
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
