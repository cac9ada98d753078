// The stdio transport (SPEC §2): newline-delimited JSON-RPC on stdin/stdout, like the SDK's
// StdioServerTransport, except that a malformed request carrying a usable id gets a JSON-RPC error
// with that id instead of being dropped (the client would wait for its own timeout), and an
// oversized frame is skipped instead of closing the session (#14).

import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { PageSplicer } from "./results.js";

/** Longest frame read (the SDK's own read buffer limit); a longer line is skipped whole. */
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;

/** JSON-RPC 2.0 error codes for requests that fail the message schema. */
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

const NEWLINE = 0x0a;

/** A stdio server transport that answers malformed requests (see the file comment). */
export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private partBytes = 0;
  private skipping = false;
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly onSkippedFrame: (bytes: number) => void = () => {},
    /** Writes large base64 pages without serialising them again (see PageSplicer). */
    private readonly splicer?: PageSplicer,
  ) {}

  /** Starts reading stdin. */
  async start(): Promise<void> {
    if (this.started) throw new Error("GuardedStdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
  }

  /** Writes one message as a line; resolves once stdout took it (or drained). */
  send(message: JSONRPCMessage): Promise<void> {
    const spliced = this.splicer?.sendSpliced(message, this.writeReusedLine);
    if (spliced) return spliced;
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + "\n")) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  /**
   * Writes a line whose memory is reused afterwards: resolves once the write has finished with it
   * and stdout can take more (as send() waits for 'drain').
   */
  private readonly writeReusedLine = async (line: Buffer): Promise<void> => {
    let accepted = true;
    const written = new Promise<void>((resolve) => {
      accepted = this.stdout.write(line, () => resolve());
    });
    if (!accepted) await new Promise((resolve) => this.stdout.once("drain", resolve));
    await written;
  };

  /** Stops reading (stdin is paused when nothing else listens) and reports the close. */
  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.parts = [];
    this.partBytes = 0;
    this.onclose?.();
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) break;
      this.keep(chunk.subarray(start, newline));
      const skipped = this.skipping;
      const line = this.takeLine();
      if (!skipped) this.handleLine(line);
      start = newline + 1;
    }
    this.keep(chunk.subarray(start));
  };

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.skipping) {
      this.partBytes += bytes.length;
      return;
    }
    if (this.partBytes + bytes.length > MAX_FRAME_BYTES) {
      this.skipping = true;
      this.parts = [];
    } else {
      this.parts.push(bytes);
    }
    this.partBytes += bytes.length;
  }

  private takeLine(): string {
    if (this.skipping) this.onSkippedFrame(this.partBytes);
    const line = this.skipping ? "" : Buffer.concat(this.parts, this.partBytes).toString("utf8");
    this.parts = [];
    this.partBytes = 0;
    this.skipping = false;
    return line;
  }

  private handleLine(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.onerror?.(error as Error); // no id to answer: ignored, as the SDK does
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const reply = malformedRequestReply(value);
    if (reply) void this.send(reply).catch(() => {});
    else this.onerror?.(new Error("ignored a frame that is not a JSON-RPC 2.0 message"));
  }
}

/**
 * The error reply to a frame that fails the JSON-RPC message schema, when it is a request with a
 * usable id (string or number); undefined for notifications, responses and id-less junk.
 */
export function malformedRequestReply(value: unknown): JSONRPCMessage | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const frame = value as Record<string, unknown>;
  const id = frame.id;
  const usableId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if (!usableId) return undefined;
  // A response (result or error, no method) is never answered (JSON-RPC 2.0 §5).
  if (!("method" in frame) && ("result" in frame || "error" in frame)) return undefined;
  const params = frame.params;
  const badParams =
    "params" in frame && (typeof params !== "object" || params === null || Array.isArray(params));
  const error =
    typeof frame.method === "string" && frame.jsonrpc === "2.0" && badParams
      ? {
          code: INVALID_PARAMS,
          message: `params must be an object (or absent), got ${kindOf(params)}`,
        }
      : {
          code: INVALID_REQUEST,
          message:
            'expected a JSON-RPC 2.0 request {"jsonrpc": "2.0", "id", "method": string, ' +
            `"params"?: object} with no other keys; got ${describeFrame(frame)}`,
        };
  return { jsonrpc: "2.0", id, error } as unknown as JSONRPCMessage;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** What was wrong with a frame, without echoing its content. */
function describeFrame(frame: Record<string, unknown>): string {
  if (frame.jsonrpc !== "2.0") return `jsonrpc ${kindOf(frame.jsonrpc)} that is not "2.0"`;
  if (!("method" in frame)) return "no method";
  if (typeof frame.method !== "string") return `a method that is ${kindOf(frame.method)}`;
  const known = new Set(["jsonrpc", "id", "method", "params"]);
  const extra = Object.keys(frame).filter((key) => !known.has(key)).length;
  if (extra > 0) return `${extra} unknown top-level key(s)`;
  return "an id that is not a string or an integer";
}
