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
import type { CommandRuntime, WaitRequest } from "../runtime/runtime.js";
import type { GrepRequest } from "../runtime/search.js";
import type { ExecRequest, OutputEncoding, StreamName } from "../runtime/types.js";
import { callerOf } from "./elicitation.js";
import { errorResult, successResult, type PageSplicer, type ToolResult } from "./results.js";
import { toolDefinitions, type ToolDefinition } from "./tools.js";
import { ArgumentValidator } from "./validate.js";

export interface ServerIdentity {
  name: string;
  version: string;
}

type Extra = {
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
};

type Handler = (
  args: Record<string, unknown>,
  extra: Extra,
  progressToken: string | number | undefined,
) => Promise<object>;

/**
 * Builds the MCP server for a runtime; connect it to a transport to serve. With a `splicer`
 * (attached to that transport), large base64 pages are spliced in at the transport.
 */
export function createMcpServer(
  runtime: CommandRuntime,
  identity: ServerIdentity,
  splicer?: PageSplicer,
): Server {
  const programs = Object.keys(runtime.inspect().programs);
  const tools: ToolDefinition[] = toolDefinitions(programs);
  const validator = new ArgumentValidator(tools);
  const server = new Server(
    { name: identity.name, version: identity.version },
    { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  const handlers = toolHandlers(runtime, server);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<ToolResult> => {
    const name = request.params.name;
    const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
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

function toolHandlers(runtime: CommandRuntime, server: Server): Record<string, Handler> {
  return {
    system_environment: async () => runtime.inspect(),
    system_output: async (args, extra) =>
      runtime.readOutput(
        {
          id: args.id as string | undefined,
          executionId: args.executionId as string | undefined,
          stream: args.stream as StreamName,
          offset: args.offset as number,
          limit: (args.limit as number | undefined) ?? DEFAULT_OUTPUT_PAGE_BYTES,
          encoding: (args.encoding as OutputEncoding | undefined) ?? "utf8",
          waitMs: args.waitMs as number | undefined,
          grep: args.grep as GrepRequest | undefined,
        },
        extra.signal,
      ),
    system_exec: async (args, extra, progressToken) =>
      runtime.execute(args as unknown as ExecRequest, {
        signal: extra.signal,
        onProgress: progressSender(extra, progressToken),
        caller: callerOf(server, extra.signal),
      }),
    system_wait: async (args, extra, progressToken) =>
      runtime.wait(args as unknown as WaitRequest, {
        signal: extra.signal,
        onProgress: progressSender(extra, progressToken),
      }),
    system_cancel: async (args) =>
      runtime.cancel(args.executionId as string, args.gracePeriodMs as number | undefined),
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
