// A loopback stand-in for the Anthropic Messages API (HOSTS.md), for Claude Code and OpenCode:
// `POST /v1/messages` answered with server-sent events (message_start, content_block_* with
// `tool_use` blocks and `input_json_delta`, message_delta `stop_reason: "tool_use"`,
// message_stop), or JSON when the request does not stream, and `POST /v1/messages/count_tokens`.
// Requests that offer our tools follow the script; any other request (titles, summaries) gets
// the final text. Every session request is recorded with the tool results it carries.

import type { ServerResponse } from "node:http";

import { mockModel, sendJson, startLoopback, type MockModel } from "./loopback.js";
import type { Loopback } from "./loopback.js";
import { FINAL_TEXT, Script, hostToolName } from "./script.js";
import type { ScriptStep, ScriptedTurn, SeenResult } from "./script.js";

type Json = Record<string, any>;

/** One session request as far as the tests care. */
export interface AnthropicRequest {
  /** Every tool name the host offered. */
  toolNames: string[];
  /** The offered tool definitions (name, description, input_schema). */
  tools: Json[];
  /** The system prompt and every user text block, joined: what the model was told. */
  context: string;
  /** The `tool_result` blocks of the conversation, in order: what the model saw. */
  results: SeenResult[];
  body: Json;
}

/** `origin` is `ANTHROPIC_BASE_URL`; the Messages API is under `/v1`. */
export type MockAnthropic = MockModel<AnthropicRequest>;

/** The text of a `tool_result` block's content (a string or text blocks). */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part: Json) => (typeof part?.text === "string" ? part.text : "")).join("");
  }
  return content === undefined ? "" : JSON.stringify(content);
}

function systemText(system: unknown): string {
  if (typeof system === "string") return system;
  if (Array.isArray(system)) return system.map((part: Json) => String(part?.text ?? "")).join("\n");
  return "";
}

function record(body: Json): AnthropicRequest {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  const results: SeenResult[] = [];
  const context = [systemText(body.system)];
  for (const message of Array.isArray(body.messages) ? (body.messages as Json[]) : []) {
    if (message?.role !== "user") continue;
    if (typeof message.content === "string") context.push(message.content);
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Json[]) {
      if (block?.type === "text") context.push(String(block.text));
      if (block?.type !== "tool_result") continue;
      results.push({
        callId: String(block.tool_use_id),
        text: resultText(block.content),
        isError: block.is_error === true,
      });
    }
  }
  return {
    toolNames: tools.map((tool) => String(tool?.name)),
    tools,
    context: context.join("\n"),
    results,
    body,
  };
}

const USAGE = { input_tokens: 1, output_tokens: 1 };

/** The content blocks of a step. */
function blocks(step: ScriptStep): Json[] {
  if (step.kind === "text") return [{ type: "text", text: step.text }];
  return step.calls.map((call) => ({
    type: "tool_use",
    id: `toolu_${call.id}`,
    name: call.name,
    input: call.args,
  }));
}

function sendEvent(res: ServerResponse, data: Json): void {
  res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** A streamed message holding `content`. */
function stream(res: ServerResponse, id: string, model: string, content: Json[]): void {
  const stopReason = content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  sendEvent(res, {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: USAGE,
    },
  });
  content.forEach((block, index) => {
    if (block.type === "text") {
      sendEvent(res, {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      sendEvent(res, {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      sendEvent(res, {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      sendEvent(res, {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    sendEvent(res, { type: "content_block_stop", index });
  });
  sendEvent(res, {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  sendEvent(res, { type: "message_stop" });
  res.end();
}

/** Start the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockAnthropic(turns: ScriptedTurn[]): Promise<MockAnthropic> {
  const script = new Script(turns);
  const requests: AnthropicRequest[] = [];
  let count = 0;
  const server: Loopback = await startLoopback((req, res, raw) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (req.method === "POST" && path.endsWith("/v1/messages/count_tokens")) {
      sendJson(res, 200, { input_tokens: 1 });
      return;
    }
    if (req.method !== "POST" || !path.endsWith("/v1/messages")) {
      sendJson(res, 404, { type: "error", error: { type: "not_found_error", message: "mock" } });
      return;
    }
    const body = JSON.parse(raw) as Json;
    const seen = record(body);
    const session = hostToolName(seen.toolNames, "system_exec") !== undefined;
    let step: ScriptStep = { kind: "text", text: FINAL_TEXT };
    if (session) {
      requests.push(seen);
      step = script.next(seen.toolNames, seen.results);
    }
    const id = `msg_${++count}`;
    const model = String(body.model ?? "mock");
    if (body.stream === true) {
      stream(res, id, model, blocks(step));
      return;
    }
    sendJson(res, 200, {
      id,
      type: "message",
      role: "assistant",
      model,
      content: blocks(step),
      stop_reason: step.kind === "calls" ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: USAGE,
    });
  });
  return mockModel(server, script, requests);
}
