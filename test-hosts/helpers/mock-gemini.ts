// A loopback stand-in for the Gemini API (HOSTS.md), for Gemini CLI:
// `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` answered with server-sent events
// whose candidates carry `functionCall` parts (or text), `:generateContent` with JSON, and
// `:countTokens`. Requests that offer our tools follow the script; any other request gets the
// final text. Every session request is recorded with the function responses it carries.

import type { ServerResponse } from "node:http";

import { mockModel, sendJson, startLoopback, type MockModel } from "./loopback.js";
import { FINAL_TEXT, Script, hostToolName } from "./script.js";
import type { ScriptStep, ScriptedTurn, SeenResult } from "./script.js";

type Json = Record<string, any>;

/** One session request as far as the tests care. */
export interface GeminiRequest {
  /** Every function name the host offered. */
  toolNames: string[];
  /** The offered function declarations. */
  tools: Json[];
  /** The system instruction and every user text part, joined: what the model was told. */
  context: string;
  /** The `functionResponse` parts of the conversation, in order: what the model saw. */
  results: SeenResult[];
  /** The `functionCall` parts the conversation holds (the model's calls, as Gemini kept them). */
  calls: Json[];
  body: Json;
}

/** `origin` is `GOOGLE_GEMINI_BASE_URL`. */
export type MockGemini = MockModel<GeminiRequest>;

/** Every string inside a value, depth first (a function response's texts). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) strings(item, out);
  }
  return out;
}

function partsText(content: unknown): string[] {
  const parts = (content as Json | undefined)?.parts;
  if (!Array.isArray(parts)) return [];
  return parts.filter((part: Json) => typeof part?.text === "string").map((part) => part.text);
}

function record(body: Json): GeminiRequest {
  const tools: Json[] = [];
  for (const entry of Array.isArray(body.tools) ? (body.tools as Json[]) : []) {
    if (Array.isArray(entry?.functionDeclarations)) tools.push(...entry.functionDeclarations);
  }
  const results: SeenResult[] = [];
  const calls: Json[] = [];
  const context = partsText(body.systemInstruction);
  for (const content of Array.isArray(body.contents) ? (body.contents as Json[]) : []) {
    for (const part of Array.isArray(content?.parts) ? (content.parts as Json[]) : []) {
      if (part?.functionCall !== undefined) calls.push(part.functionCall as Json);
      if (content.role === "user" && typeof part?.text === "string") context.push(part.text);
      const response = part?.functionResponse as Json | undefined;
      if (response === undefined) continue;
      results.push({
        callId: String(response.id ?? response.name),
        text: strings(response.response).join("\n"),
        isError: typeof response.response === "object" && "error" in response.response,
      });
    }
  }
  return {
    toolNames: tools.map((tool) => String(tool?.name)),
    tools,
    context: context.join("\n"),
    results,
    calls,
    body,
  };
}

const USAGE = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };

/** The candidate parts of a step. */
function parts(step: ScriptStep): Json[] {
  if (step.kind === "text") return [{ text: step.text }];
  return step.calls.map((call) => ({
    functionCall: { id: call.id, name: call.name, args: call.args },
  }));
}

function chunk(model: string, id: string, content: Json[]): Json {
  return {
    candidates: [{ content: { role: "model", parts: content }, finishReason: "STOP", index: 0 }],
    usageMetadata: USAGE,
    modelVersion: model,
    responseId: id,
  };
}

function stream(res: ServerResponse, body: Json): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(`data: ${JSON.stringify(body)}\r\n\r\n`);
  res.end();
}

/** Start the mock on 127.0.0.1 with an ephemeral port. */
export async function startMockGemini(turns: ScriptedTurn[]): Promise<MockGemini> {
  const script = new Script(turns);
  const requests: GeminiRequest[] = [];
  let count = 0;
  const server = await startLoopback((req, res, raw) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const match = /\/models\/([^/:]+):(\w+)$/.exec(path);
    if (req.method !== "POST" || match === null) {
      sendJson(res, 404, { error: { code: 404, message: "not mocked", status: "NOT_FOUND" } });
      return;
    }
    const [, model = "mock", method] = match;
    const body = JSON.parse(raw) as Json;
    if (method === "countTokens") {
      sendJson(res, 200, { totalTokens: 1 });
      return;
    }
    const seen = record(body);
    let step: ScriptStep = { kind: "text", text: FINAL_TEXT };
    if (hostToolName(seen.toolNames, "system_exec") !== undefined) {
      requests.push(seen);
      step = script.next(seen.toolNames, seen.results);
    }
    const answer = chunk(model, `resp_${++count}`, parts(step));
    if (method === "streamGenerateContent") stream(res, answer);
    else sendJson(res, 200, answer);
  });
  return mockModel(server, script, requests);
}
