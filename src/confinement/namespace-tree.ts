// The process tree of a confined execution on Linux (SPEC §20): bwrap leads the process group as
// for any execution, and the sandbox's PID namespace holds every descendant, including those that
// called setsid(). The tree counts as empty only once the group is empty and the namespace has no
// live process left, so `treeCleaned: true` is confirmed by the namespace being gone.

import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { PosixProcessGroup } from "../process/posix-group.js";
import type { ProcessTree } from "../process/tree.js";
import type { CleanupError } from "../process/types.js";
import { within } from "../within.js";
import { INFO_WAIT_MS, SETTLE_FAST_POLL_MS, SETTLE_MS, SETTLE_POLL_MS } from "./constants.js";
import {
  isLiveMember,
  liveNamespaceMembers,
  readBwrapInfo,
  type SandboxInfo,
} from "./namespace.js";

/**
 * Polls `condition` while it holds, for at most `ms`: at every turn of the event loop for the
 * first SETTLE_FAST_POLL_MS (a namespace's PID 1 usually finishes within a fraction of a
 * millisecond of bwrap's exit, and a timer would add a whole poll interval to the call), then
 * every SETTLE_POLL_MS.
 */
async function waitWhile(condition: () => boolean, ms: number): Promise<void> {
  const started = performance.now();
  const deadline = started + ms;
  while (condition()) {
    const now = performance.now();
    if (now >= deadline) return;
    if (now - started < SETTLE_FAST_POLL_MS) await new Promise((resolve) => setImmediate(resolve));
    else await sleep(SETTLE_POLL_MS);
  }
}

/** A bwrap process group plus the PID namespace bwrap created. */
export class NamespaceProcessGroup implements ProcessTree {
  readonly adapter = "unix-process-group" as const;
  readonly unconfirmedError = "FINAL_WAIT_EXPIRED" as const;
  readonly findsLeftovers = true;
  private readonly group: PosixProcessGroup;
  private readonly info: Promise<SandboxInfo | undefined>;
  private known: SandboxInfo | undefined;
  private stopping = false;
  private rootExited = false;

  constructor(pgid: number, infoStream: Readable) {
    this.group = new PosixProcessGroup(pgid);
    this.info = readBwrapInfo(infoStream).then((info) => (this.known = info));
  }

  requestGraceful(): CleanupError | undefined {
    this.stopping = true;
    return this.group.requestGraceful();
  }

  force(): CleanupError | undefined {
    this.stopping = true;
    const error = this.group.force();
    // Members outside the group (setsid) die with the namespace's PID 1; kill them directly too.
    if (this.known) {
      for (const pid of liveNamespaceMembers(this.known.pidNamespace)) {
        if (pid > 1) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // already gone
          }
        }
      }
    }
    return error;
  }

  /**
   * Empty when no live member is left in the group and none in the namespace. After a natural exit
   * the namespace's PID 1 being gone is proof enough (the kernel kills every member before PID 1
   * finishes exiting); after a termination request the group and the whole of /proc are checked.
   */
  async isEmpty(): Promise<boolean> {
    const info = this.known ?? (await within(this.info, INFO_WAIT_MS, undefined));
    if (info && this.rootExited && !this.stopping) {
      // bwrap exits as soon as its PID 1 reports the program's status; PID 1 is then already
      // tearing the namespace down. Give that a moment instead of mistaking it for leftovers.
      await waitWhile(() => isLiveMember(info.childPid, info.pidNamespace), SETTLE_MS);
    }
    if (!info) return this.group.isEmpty(); // no sandbox was created: the group is the tree
    if (isLiveMember(info.childPid, info.pidNamespace)) return false;
    // Outside the namespace the group holds bwrap alone, which has exited: once PID 1 is gone too,
    // nothing of the tree is alive (this saves a /proc scan on every natural exit).
    if (this.rootExited && !this.stopping) return true;
    if (!(await this.group.isEmpty())) return false;
    return liveNamespaceMembers(info.pidNamespace).length === 0;
  }

  markRootExited(): void {
    this.rootExited = true;
  }

  dispose(): void {
    this.group.dispose();
  }
}
