// `serve`: the MCP server on stdio, with the shutdown paths of SPEC §2.

import { clipText } from "../errors.js";
import { SHUTDOWN_DEADLINE_MS } from "../limits.js";
import { PageSplicer } from "../mcp/results.js";
import { createMcpServer } from "../mcp/server.js";
import { GuardedStdioTransport } from "../mcp/stdio-transport.js";
import { SERVER_NAME, SERVER_VERSION } from "../version.js";
import { defaultExecutionsDir, reapDeadServers } from "../process/crash-registry.js";
import { bootstrap } from "./bootstrap.js";
import { logLine } from "./log.js";
import { settleYoungGeneration } from "./young-generation-settle.js";
import type { CommonOptions } from "./options.js";

/** Margin kept below the 2 s shutdown bound for the process to exit. */
const EXIT_MARGIN_MS = 150;

const SHUTDOWN_SIGNALS: NodeJS.Signals[] =
  process.platform === "win32" ? ["SIGINT", "SIGBREAK"] : ["SIGTERM", "SIGINT", "SIGHUP"];

/** Runs the server until stdin ends, stdout breaks or a shutdown signal arrives; exits 0. */
export async function serve(options: CommonOptions): Promise<void> {
  const { runtime, catalog, roots } = await bootstrap(options, { command: "serve" });
  const splicer = new PageSplicer();
  const server = createMcpServer(
    runtime,
    { name: SERVER_NAME, version: SERVER_VERSION },
    { splicer, resultDetail: options.resultDetail ?? catalog.resultDetail },
  );
  const transport = new GuardedStdioTransport(
    process.stdin,
    process.stdout,
    (bytes) => logLine(`skipped a frame of ${bytes} bytes (longer than the 10 MiB frame limit)`),
    splicer,
  );

  let stopping = false;
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    logLine(`shutting down (${why})`);
    const deadline = setTimeout(() => process.exit(0), SHUTDOWN_DEADLINE_MS - EXIT_MARGIN_MS);
    void runtime
      .close()
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .finally(() => {
        clearTimeout(deadline);
        process.exit(0);
      });
  };

  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, () => shutdown(signal));
  process.stdin.on("end", () => shutdown("stdin closed"));
  process.stdin.on("close", () => shutdown("stdin closed"));
  process.stdout.on("error", () => shutdown("stdout closed"));
  transport.onclose = () => shutdown("transport closed");

  server.oninitialized = () => {
    if (process.platform !== "win32") reapLeftovers();
  };
  await server.connect(transport);
  settleYoungGeneration();
  logLine(
    `${SERVER_VERSION} ready: mode ${catalog.mode}, ${catalog.programs.size} programs, ` +
      `roots ${roots.map((root) => root.path).join(", ")}`,
  );
}

/** Kills what servers that died left running, and says so on stderr (§19). */
function reapLeftovers(): void {
  const report = reapDeadServers(defaultExecutionsDir());
  if (report.files > 0) {
    logLine(
      `recovered ${report.files} registry file(s) of servers that died: killed ${report.killed} ` +
        `leftover process(es), left ${report.skippedGroups} reused group id(s) alone`,
    );
  }
  const odd = report.skippedEntries;
  if (odd.length > 0) {
    logLine(
      `crash recovery skipped ${odd.length} ${odd.length === 1 ? "entry" : "entries"} that are ` +
        `not regular files in ${defaultExecutionsDir()}: ${clipText(odd.join(", "))}`,
    );
  }
}
