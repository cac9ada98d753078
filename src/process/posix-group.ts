// POSIX adapter: the execution's own process group, signalled as a whole (SPEC §6.1, §6.5).

import type { CleanupError } from "./types.js";
import { groupHasLiveMembers } from "./proc-table.js";
import type { ProcessTree } from "./tree.js";

/** The process group led by the child (pgid = child pid, from `detached: true`). */
export class PosixProcessGroup implements ProcessTree {
  readonly adapter = "unix-process-group" as const;
  readonly unconfirmedError = "FINAL_WAIT_EXPIRED" as const;
  readonly findsLeftovers = true;

  constructor(private readonly pgid: number) {
    if (!Number.isInteger(pgid) || pgid <= 1) {
      throw new Error(`expected a process group id above 1, got ${pgid}`);
    }
  }

  requestGraceful(): CleanupError | undefined {
    return this.signal("SIGTERM");
  }

  force(): CleanupError | undefined {
    return this.signal("SIGKILL");
  }

  isEmpty(): Promise<boolean> {
    return groupHasLiveMembers(this.pgid).then((live) => !live);
  }

  dispose(): void {}

  private signal(signal: NodeJS.Signals): CleanupError | undefined {
    try {
      process.kill(-this.pgid, signal);
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === "ESRCH" ? undefined : "SIGNAL_FAILED";
    }
  }
}
