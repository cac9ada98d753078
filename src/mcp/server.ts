// The MCP adapter: the SDK's low-level Server over stdio, translating calls into runtime calls.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { CommandError, quoteValue } from "../errors.js";
import { SERVER_INSTRUCTIONS } from "../hosts/guidance.js";
import { DEFAULT_OUTPUT_PAGE_BYTES } from "../limits.js";
import type { CommandRuntime, OutputRequest, WaitRequest } from "../runtime/runtime.js";
import type { ExecRequest } from "../runtime/types.js";
import { childProcess } from "../child-process.js";
import {
  compactExecution,
  compactPage,
  DEFAULT_RESULT_DETAIL,
  type ResultDetail,
} from "./compact.js";
import { callerOf } from "./elicitation.js";
import type {
  EnvironmentReportResult,
  ExecutionReportResult,
  OutputPageResult,
} from "./output-schemas.js";
import type { NoDrift, ResultDrift } from "./result-drift.js";
import { errorResult, successResult, type PageSplicer, type ToolResult } from "./results.js";
import {
  toolDefinitions,
  type CancelArgs,
  type ExecArgs,
  type OutputArgs,
  type ToolDefinition,
  type WaitArgs,
} from "./tools.js";
import { ArgumentValidator } from "./validate.js";

export interface ServerIdentity {
  name: string;
  version: string;
}

export interface McpServerOptions {
  /** With it, large base64 pages are spliced in at the transport it is attached to. */
  splicer?: PageSplicer;
  /** Results' detail when a call does not choose (docs/results.md "Compact results"). */
  resultDetail?: ResultDetail;
}

type Extra = {
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
};

/** Each tool's arguments, typed from its own input schema (what the validator let through). */
interface ToolArgs {
  system_environment: Record<string, never>;
  system_output: OutputArgs;
  system_exec: ExecArgs;
  system_wait: WaitArgs;
  system_cancel: CancelArgs;
}

/** Each tool's result, typed from its own output schema (what tools/list declares). */
interface ToolResults {
  system_environment: EnvironmentReportResult;
  system_output: OutputPageResult;
  system_exec: ExecutionReportResult;
  system_wait: ExecutionReportResult;
  system_cancel: ExecutionReportResult;
}

type Handler<A, R> = (
  args: A,
  extra: Extra,
  progressToken: string | number | undefined,
) => Promise<R>;

type Handlers = { [K in keyof ToolArgs]: Handler<ToolArgs[K], ToolResults[K]> };

/** True when every field the schema accepts is one the runtime's request type has. */
type CoveredBy<Args, Request> = Exclude<keyof Args, keyof Request> extends never ? true : false;
type Assert<T extends true> = T;
/**
 * Compile-time check of the other direction: passing `args` to the runtime already proves the
 * schema's types fit the request types; this proves no schema field is silently dropped.
 */
export type SchemasMatchRequests = [
  // `detail` is the adapter's own: it shapes the result, the runtime never sees it.
  Assert<CoveredBy<Omit<ExecArgs, "detail">, ExecRequest>>,
  Assert<CoveredBy<Omit<WaitArgs, "detail">, WaitRequest>>,
  Assert<CoveredBy<OutputArgs, OutputRequest>>,
];

/** What the runtime method behind each tool resolves to. */
type RuntimeResult<M extends "inspect" | "readOutput" | "execute" | "wait" | "cancel"> = Awaited<
  ReturnType<CommandRuntime[M]>
>;
/**
 * Compile-time check of the results: the handlers returning the runtime's results as the
 * schema-derived types prove they fit; this names every field the runtime type has that the
 * output schema lacks, every schema field no runtime variant has, and every value or optional
 * field the schema does not allow, nested objects included (shown in test/result-types.test.ts).
 */
export type ResultsMatchSchemas = [
  NoDrift<ResultDrift<RuntimeResult<"inspect">, EnvironmentReportResult, "system_environment">>,
  NoDrift<ResultDrift<RuntimeResult<"readOutput">, OutputPageResult, "system_output">>,
  NoDrift<ResultDrift<RuntimeResult<"execute">, ExecutionReportResult, "system_exec">>,
  NoDrift<ResultDrift<RuntimeResult<"wait">, ExecutionReportResult, "system_wait">>,
  NoDrift<ResultDrift<RuntimeResult<"cancel">, ExecutionReportResult, "system_cancel">>,
];

/** Builds the MCP server for a runtime; connect it to a transport to serve. */
export function createMcpServer(
  runtime: CommandRuntime,
  identity: ServerIdentity,
  options: McpServerOptions = {},
): Server {
  const { splicer } = options;
  const programs = Object.keys(runtime.inspect().programs);
  const tools: ToolDefinition[] = toolDefinitions(programs);
  const validator = new ArgumentValidator(tools, (name) => runtime.registrationHint(name));
  const server = new Server(
    { name: identity.name, version: identity.version },
    { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  const handlers = toolHandlers(runtime, server, options.resultDetail ?? DEFAULT_RESULT_DETAIL);

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // Answered: the host's model decides on its first call now. Spawning needs node:child_process,
    // which the start did not load (child-process.ts); load it while the server waits.
    setImmediate(childProcess);
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const name = request.params.name;
    // The one place arguments meet their type: the validator has just checked them against the
    // schema their type is derived from.
    const handler = Object.hasOwn(handlers, name)
      ? (handlers[name as keyof Handlers] as Handler<unknown, object>)
      : undefined;
    if (!handler) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${quoteValue(name)}; expected one of ${tools.map((t) => t.name).join(", ")}`,
      );
    }
    try {
      if (runtime.isClosing) {
        throw new CommandError("RUNTIME_CLOSING", "the server is shutting down; retry later");
      }
      const args = validator.check(name, request.params.arguments);
      const token = request.params._meta?.progressToken;
      const value = await handler(args, extra as Extra, token);
      return splicer ? splicer.result(value) : successResult(value);
    } catch (error) {
      if (error instanceof CommandError) return errorResult(error);
      throw error;
    }
  });
  return server;
}

function toolHandlers(
  runtime: CommandRuntime,
  server: Server,
  serverDetail: ResultDetail,
): Handlers {
  const notNamed = { cwdNamed: false };
  return {
    system_environment: async () => runtime.inspect(),
    system_output: async (args, extra) =>
      compactPage(
        await runtime.readOutput(
          {
            ...args,
            limit: args.limit ?? DEFAULT_OUTPUT_PAGE_BYTES,
            encoding: args.encoding ?? "utf8",
          },
          extra.signal,
        ),
        serverDetail,
      ),
    system_exec: async ({ detail, ...args }, extra, progressToken) =>
      compactExecution(
        await runtime.execute(args, {
          signal: extra.signal,
          onProgress: progressSender(extra, progressToken),
          caller: callerOf(server, extra.signal),
        }),
        detail ?? serverDetail,
        { cwdNamed: args.cwd !== undefined },
      ),
    system_wait: async ({ detail, ...args }, extra, progressToken) =>
      compactExecution(
        await runtime.wait(args, {
          signal: extra.signal,
          onProgress: progressSender(extra, progressToken),
        }),
        detail ?? serverDetail,
        notNamed,
      ),
    system_cancel: async (args) =>
      compactExecution(
        await runtime.cancel(args.executionId, args.gracePeriodMs),
        serverDetail,
        notNamed,
      ),
  };
}

/** Sends notifications/progress for a request that carried a progressToken (§6.7). */
function progressSender(extra: Extra, progressToken: string | number | undefined) {
  if (progressToken === undefined) return undefined;
  return (elapsedMs: number, message: string) => {
    void extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress: elapsedMs, message },
      })
      .catch(() => {});
  };
}
