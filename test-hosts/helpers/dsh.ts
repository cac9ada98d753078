// Load DSH's own MCP bridge (@deepseek-ai/dsh-mcp-client) the way DSH composes it: a cordis
// Context with the system-prompt and tool-runtime services, and one plugin row whose config is
// the one `print-config dsh` prints. Node 20 lacks Promise.withResolvers, which DSH uses.

import { parse } from "yaml";

/** Node 20: a spec-shaped Promise.withResolvers, installed before DSH's modules load. */
function installWithResolvers(): void {
  const promise = Promise as unknown as { withResolvers?: unknown };
  if (typeof promise.withResolvers === "function") return;
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const created = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise: created, resolve, reject };
    },
  });
}

/** The plugin row of a printed DSH snippet (a cordis.patch.yml `insert` entry). */
export interface DshPluginRow {
  id: string;
  name: string;
  config: Record<string, any>;
}

/** Parse the printed snippet as DSH's patch file would hold it and return its one plugin row. */
export function pluginRowOf(snippet: string): DshPluginRow {
  const patch = parse(snippet) as { insert?: DshPluginRow[] }[];
  const rows = patch.flatMap((entry) => entry.insert ?? []);
  if (rows.length !== 1 || rows[0] === undefined) {
    throw new Error(`expected one plugin row in the DSH snippet, found ${rows.length}`);
  }
  return rows[0];
}

/** A tool result as DSH's tool runtime materialises it for the model. */
export interface DshToolResult {
  isError: boolean;
  content: { type: string; text?: string }[];
  value?: { content: unknown[]; structuredContent?: unknown };
  error?: { message: string };
}

export interface DshHost {
  /** Model-facing tool names. */
  toolNames(): string[];
  /** The registered definition of a tool (its declared output schema, for instance). */
  definition(name: string): Record<string, any> | undefined;
  /** Call a tool as the agent loop would. */
  call(name: string, args: Record<string, unknown>): Promise<DshToolResult>;
  /** Unload the plugin (DSH closes the server), then drop the context. */
  dispose(): Promise<void>;
}

/** Start a DSH host with the plugin row; resolves once the server's tools are registered. */
export async function startDshHost(row: DshPluginRow): Promise<DshHost> {
  installWithResolvers();
  const { Context } = await import("@deepseek-ai/cordis");
  const { default: SystemPrompt } = await import("@deepseek-ai/dsh-system-prompt");
  const { default: ToolRuntime } = await import("@deepseek-ai/dsh-tools");
  const mcpClient = await import("@deepseek-ai/dsh-mcp-client");
  if (row.name !== "@deepseek-ai/dsh-mcp-client") throw new Error(`unexpected plugin ${row.name}`);

  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  // The row's config goes in as DSH's loader would pass it: parsed YAML, unchecked here.
  const fiber = ctx.plugin(mcpClient, row.config as never);
  await fiber.await(); // rethrows a startup failure (failOnStartupError)
  const tools = (ctx as any).tools;
  let callCount = 0;
  return {
    toolNames: () => tools.schemas().map((schema: { name: string }) => schema.name),
    definition: (name) => tools.get(name),
    call: async (name, args) => {
      const signal = AbortSignal.timeout(row.config.toolCallTimeoutMs ?? 60_000);
      return (await tools.execute({
        callId: `call-${++callCount}`,
        name,
        arguments: args,
        signal,
      })) as DshToolResult;
    },
    dispose: async () => {
      await fiber.dispose();
    },
  };
}
