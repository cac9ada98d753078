// What a sandbox must pin and keep read-only (SPEC §20.1 items 1 and 2): a path inside a writable
// place stays read-only, and every directory from that place down to it is bound onto itself so
// that it cannot be renamed or replaced (a mount point cannot be: EBUSY).

import { outermostFirst, outermostPlace, chainBelow } from "./within-path.js";
import path from "node:path";
import { existingRealPath } from "./mounts.js";

/** Directories to bind onto themselves and paths to bind read-only, in mount order. */
export interface Protection {
  /** Outermost first: each is bound before anything inside it. */
  pinned: string[];
  readOnly: string[];
}

/** Collects pins and read-only binds for the writable places of one execution. */
export class ProtectionSet {
  private readonly pins = new Set<string>();
  private readonly kept = new Set<string>();

  /**
   * `writable`: the places the program may write; `visible`: whether a path exists inside the
   * sandbox at all (not below the private /tmp or the empty /run unless bound there again).
   */
  constructor(
    readonly writable: readonly string[],
    private readonly visible: (target: string) => boolean = () => true,
  ) {}

  /** Whether `target` lies in a writable place. */
  isWritable(target: string): boolean {
    return outermostPlace(target, this.writable) !== undefined;
  }

  /** Pins every directory from the writable place holding `dir` down to `dir`; false when none does. */
  pinDownTo(dir: string): boolean {
    if (!this.visible(dir)) return false;
    const place = outermostPlace(dir, this.writable);
    if (place === undefined) return false;
    for (const step of chainBelow(place, dir)) this.pins.add(step);
    return true;
  }

  /** Keeps `target` read-only and its directories un-renamable, when it lies in a writable place. */
  keepReadOnly(target: string): void {
    if (!this.pinDownTo(path.dirname(target))) return;
    this.kept.add(target);
  }

  /** The same for a path given by a user or a config file: its real path, when it exists. */
  keepReadOnlyIfExists(target: string): void {
    const real = existingRealPath(target);
    if (real !== undefined) this.keepReadOnly(real);
  }

  /** Pins the parents of a path that is covered some other way (hidden). */
  pinParentsOf(target: string): void {
    this.pinDownTo(path.dirname(target));
  }

  /** The result, in mount order. */
  result(): Protection {
    const readOnly = outermostFirst(this.kept);
    // A path that is read-only needs no writable self-bind of its own (it is a mount point).
    const pinned = outermostFirst([...this.pins].filter((dir) => !this.kept.has(dir)));
    return { pinned, readOnly };
  }
}
