// A loopback stand-in for the OpenAI Responses API, scripted turn by turn, so the real Codex CLI
// can drive our tools with no credentials (HOSTS.md). Each model request gets the next scripted
// tool call, built from the outputs Codex fed back so far; after the script, a final message.

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted tool call; `args` may use the outputs of earlier calls (by step index). */
export interface ScriptedCall {
  tool: string;
  args: (outputs: string[]) => Record<string, unknown>;
}

/** What Codex sent in one model request, as far as the tests care. */
export interface RecordedRequest {
  /** The namespace Codex put our server's tools under (e.g. `mcp__system_command`). */
  namespace: string | undefined;
  /** The namespace's description: Codex puts the server's `instructions` there. */
  namespaceDescription: string | undefined;
  /** Our tools as the model is shown them (name → description/parameters). */
  tools: Record<string, unknown>[];
  /** The `function_call_output` items of the request, in order: what the model saw. */
  outputs: { callId: string; output: string }[];
  /** The whole request body, for diagnostics. */
  body: Record<string, unknown>;
}

export interface MockResponses {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Script errors (a step whose arguments could not be built); the turn then just ends. */
  errors: string[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Our server's namespace entry in a request's `tools`: the one that holds system_exec. */
function findNamespace(tools: unknown): Json | undefined {
  if (!Array.isArray(tools)) return undefined;
  return tools.find((tool: Json) => {
    const inner = tool?.tools;
    return (
      tool?.type === "namespace" &&
      Array.isArray(inner) &&
      inner.some((entry: Json) => entry?.name === "system_exec")
    );
  }) as Json | undefined;
}

/** The text of a `function_call_output` item (a string, or content parts with text). */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    return output.map((part: Json) => (typeof part?.text === "string" ? part.text : "")).join("");
  }
  return JSON.stringify(output);
}

function record(body: Json): RecordedRequest {
  const namespace = findNamespace(body.tools);
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  const outputs = input
    .filter((item) => item?.type === "function_call_output")
    .map((item) => ({ callId: String(item.call_id), output: outputText(item.output) }));
  return {
    namespace: typeof namespace?.name === "string" ? namespace.name : undefined,
    namespaceDescription:
      typeof namespace?.description === "string" ? namespace.description : undefined,
    tools: Array.isArray(namespace?.tools) ? (namespace.tools as Json[]) : [],
    outputs,
    body,
  };
}

const USAGE = {
  input_tokens: 0,
  input_tokens_details: null,
  output_tokens: 0,
  output_tokens_details: null,
  total_tokens: 0,
};

function sendEvent(res: ServerResponse, data: Json): void {
  res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * The payload of a tool output as Codex shows it to the model: Codex prefixes
 * `Wall time: <s> seconds\nOutput:` (and a newline before a JSON body).
 */
export function modelPayload(output: string): string {
  return output.replace(/^Wall time: [0-9.]+ seconds\nOutput:\n?/, "");
}

/** Start the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockResponses(script: ScriptedCall[]): Promise<MockResponses> {
  const requests: RecordedRequest[] = [];
  const errors: string[] = [];
  let responseCount = 0;

  const answer = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    if (req.method !== "POST" || !(req.url ?? "").endsWith("/responses")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not mocked"}');
      return;
    }
    const seen = record(JSON.parse(raw) as Json);
    requests.push(seen);
    const id = `resp_${++responseCount}`;
    const step = script[seen.outputs.length];
    let args: Record<string, unknown> | undefined;
    if (step !== undefined && seen.namespace !== undefined) {
      try {
        args = step.args(seen.outputs.map((entry) => entry.output));
      } catch (error) {
        errors.push(`step ${seen.outputs.length} (${step.tool}): ${String(error)}`);
      }
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    sendEvent(res, { type: "response.created", response: { id } });
    if (step !== undefined && seen.namespace !== undefined && args !== undefined) {
      sendEvent(res, {
        type: "response.output_item.done",
        item: {
          type: "function_call",
          id: `fc_${responseCount}`,
          call_id: `call_${seen.outputs.length}`,
          namespace: seen.namespace,
          name: step.tool,
          arguments: JSON.stringify(args),
        },
      });
    } else {
      // Script done, or our tools were missing from the request: end the turn.
      sendEvent(res, {
        type: "response.output_item.done",
        item: {
          type: "message",
          role: "assistant",
          id: `msg_${responseCount}`,
          content: [{ type: "output_text", text: "done" }],
        },
      });
    }
    sendEvent(res, { type: "response.completed", response: { id, usage: USAGE } });
    res.end();
  };

  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      try {
        answer(req, res, raw);
      } catch (error) {
        errors.push(`request: ${String(error)}`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
