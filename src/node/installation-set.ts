// The immutable set of Node installations startup found, looked up by version (SPEC §12).

import type { NodeInstallation } from "./types.js";

/** Installations by exact version, newest first; frozen after startup. */
export class InstallationSet {
  readonly list: readonly NodeInstallation[];
  private readonly byVersion: ReadonlyMap<string, NodeInstallation>;

  constructor(installations: readonly NodeInstallation[]) {
    this.list = Object.freeze([...installations]);
    this.byVersion = new Map(installations.map((item) => [item.version, item]));
  }

  /** The installation of an exact, normalised version. */
  get(version: string): NodeInstallation | undefined {
    return this.byVersion.get(version);
  }

  /** Every installed version, newest first. */
  versions(): string[] {
    return this.list.map((item) => item.version);
  }

  /** The installed versions as a message fragment. */
  describe(): string {
    return this.list.length === 0 ? "none" : this.versions().join(", ");
  }
}
