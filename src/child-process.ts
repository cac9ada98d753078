// node:child_process, loaded on first use. Loading it (with net, dgram and Node's internal
// child-process code) takes ~15 ms of a start on this project's VMs, and nothing a start does
// until the first spawn needs it (SPEC §16 cold start: spawn → initialize → tools/list). The
// server preloads it when it has answered tools/list (mcp/server.ts), while a host waits for
// its model's first call.

import type * as ChildProcessModule from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let loaded: typeof ChildProcessModule | undefined;

/** The node:child_process module, required the first time it is asked for. */
export function childProcess(): typeof ChildProcessModule {
  return (loaded ??= require("node:child_process") as typeof ChildProcessModule);
}
