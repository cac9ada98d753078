// Each PATH directory listed once per catalog build (SPEC §10, §16 doctor): a bare candidate is
// only stat-ed in the directories whose listing holds its name, instead of in every directory.

import { readdirSync } from "node:fs";

/** Directory listings taken once and kept for one catalog build (not for the server's life). */
export class DirectoryListings {
  private readonly listings = new Map<string, ReadonlySet<string> | null>();

  /**
   * Whether `name` may be an entry of `directory`: false only when a listing of the directory
   * says it is not there. A directory that cannot be listed (searchable but unreadable, say)
   * answers true, so the candidate is looked up there as before.
   */
  mayContain(directory: string, name: string): boolean {
    let names = this.listings.get(directory);
    if (names === undefined) {
      names = listing(directory);
      this.listings.set(directory, names);
    }
    return names === null || names.has(name);
  }
}

/** The entry names of a directory; empty when it does not exist; null when it cannot be read. */
function listing(directory: string): ReadonlySet<string> | null {
  try {
    return new Set(readdirSync(directory));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? new Set() : null;
  }
}
