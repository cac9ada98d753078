// Each PATH directory listed once (SPEC §16 doctor): resolution with shared listings finds the
// same winner and the same shadowed paths as looking into every directory.

import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DirectoryListings } from "../src/programs/directory-listings.js";
import { resolveCandidates } from "../src/programs/resolve-candidates.js";
import { removeDir, tempDir } from "./helpers/server.js";

let dir: string;

beforeAll(() => {
  dir = tempDir("scm-listings-");
});

afterAll(() => removeDir(dir));

describe.runIf(process.platform !== "win32")("directory listings", () => {
  it("says a name may be in a directory only when its listing holds it", () => {
    const bin = path.join(dir, "plain");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "tool"), "");
    const listings = new DirectoryListings();
    expect(listings.mayContain(bin, "tool")).toBe(true);
    expect(listings.mayContain(bin, "other")).toBe(false);
    expect(listings.mayContain(path.join(dir, "missing"), "tool")).toBe(false);
    expect(listings.mayContain(path.join(bin, "tool"), "x")).toBe(false); // not a directory
  });

  it("resolves like a lookup in every directory, for any layout of files", () => {
    let round = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            dir: fc.nat(3),
            name: fc.constantFrom("a", "b", "c"),
            kind: fc.constantFrom("exec", "plain", "link", "dir"),
          }),
          { maxLength: 10 },
        ),
        fc.array(fc.constantFrom("a", "b", "c", "d"), { minLength: 1, maxLength: 3 }),
        (files, candidates) => {
          const base = path.join(dir, `layout-${round++}`);
          const dirs = [0, 1, 2, 3].map((i) => path.join(base, `bin${i}`));
          for (const d of dirs.slice(0, 3)) mkdirSync(d, { recursive: true }); // bin3 missing
          for (const file of files) {
            if (file.dir === 3) continue;
            const target = path.join(dirs[file.dir]!, file.name);
            try {
              if (file.kind === "dir") mkdirSync(target);
              else if (file.kind === "link") symlinkSync("/bin/sh", target);
              else {
                writeFileSync(target, "#!/bin/sh\n");
                chmodSync(target, file.kind === "exec" ? 0o755 : 0o644);
              }
            } catch {
              // the name is taken already: keep the first file
            }
          }
          const context = {
            platform: process.platform,
            pathExt: [],
            pathDirs: dirs,
            homeDir: dir,
            program: "p",
          };
          const plain = resolveCandidates(candidates, context);
          const listed = resolveCandidates(candidates, {
            ...context,
            listings: new DirectoryListings(),
          });
          expect(listed).toEqual(plain);
        },
      ),
      { numRuns: 40 },
    );
  });
});
