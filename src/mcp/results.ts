// Projection of runtime results and errors into MCP tool results (SPEC §3, §5), and the splice
// that writes large base64 pages without serialising them three times (SPEC §16 paging).

import { randomBytes } from "node:crypto";
import { CommandError } from "../errors.js";
import { ScratchBuffers } from "../output/scratch.js";

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/**
 * A success: structuredContent and a text block holding the same object as compact JSON on one
 * line (§3 Revision 3: pretty-printing cost a third more characters in every host that shows it).
 */
export function successResult(value: object): ToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
    isError: false,
  };
}

/** A tool error: exactly one text block `CODE: message` and no structuredContent. */
export function errorResult(error: CommandError): ToolResult {
  return { content: [{ type: "text", text: `${error.code}: ${error.message}` }], isError: true };
}

/** Pages whose base64 is at least this long are spliced into the message instead of serialised. */
export const SPLICE_MIN_BASE64_CHARS = 64 * 1024;
/** Stashed pages whose message never got sent (a failed send) are dropped past this many. */
const MAX_STASHED_PAGES = 16;

type JsonRpcMessage = { result?: { structuredContent?: { base64?: unknown } } };

/**
 * A 1 MiB page travels as base64 twice (structuredContent and the text block: DSH and
 * Gemini read only the text). Instead of building the text and then the message line
 * around 2.8 MB of base64, a page's base64 is replaced by a short token while the result goes
 * through the SDK, and the transport writes one Buffer with the base64 put back in both places.
 * base64 (Node's encoder: A–Z, a–z, 0–9, +, /, =) holds no character JSON escapes, in a string
 * or in a string in a string, so the bytes are exactly JSON.stringify's. (A regular-expression
 * check of the 1.4 MB string cost ~2 % of paging's server time; the page is always encoded by
 * Buffer#toString("base64").)
 */
export class PageSplicer {
  private readonly stashed = new Map<string, string>();
  /** Message lines are built in reused buffers, given back once `write` has finished. */
  private readonly lines = new ScratchBuffers();

  /** The tool result of `value`; a large base64 page is stashed behind a token. */
  result(value: object): ToolResult {
    const base64 = (value as { base64?: unknown }).base64;
    if (typeof base64 !== "string" || base64.length < SPLICE_MIN_BASE64_CHARS) {
      return successResult(value);
    }
    const token = `scm-page-${randomBytes(16).toString("hex")}`;
    if (this.stashed.size >= MAX_STASHED_PAGES) {
      this.stashed.delete(this.stashed.keys().next().value!);
    }
    this.stashed.set(token, base64);
    return successResult({ ...value, base64: token });
  }

  /**
   * Writes `message` with its stashed page spliced back in, as one Buffer through `write`, and
   * resolves once `write` is done with it (the Buffer is reused for a later page). Undefined when
   * the message carries no stashed page: the caller sends it the usual way. The transport calls
   * this from its own send() (mcp/stdio-transport.ts), so nothing of the SDK's is patched.
   */
  sendSpliced(message: unknown, write: (line: Buffer) => Promise<void>): Promise<void> | undefined {
    const token = (message as JsonRpcMessage).result?.structuredContent?.base64;
    const base64 = typeof token === "string" ? this.stashed.get(token) : undefined;
    if (base64 === undefined) return undefined;
    this.stashed.delete(token as string);
    const json = JSON.stringify(message) + "\n";
    const line = spliceLine(json, token as string, base64, (size) => this.lines.take(size));
    return write(line).finally(() => this.lines.give(line));
  }
}

/** `json` with every occurrence of `token` replaced by `base64`, as UTF-8 bytes in `allocate`d memory. */
export function spliceLine(
  json: string,
  token: string,
  base64: string,
  allocate: (size: number) => Buffer = Buffer.allocUnsafe,
): Buffer {
  const pieces: string[] = [];
  let from = 0;
  for (let at = json.indexOf(token); at !== -1; at = json.indexOf(token, from)) {
    pieces.push(json.slice(from, at));
    from = at + token.length;
  }
  pieces.push(json.slice(from));
  const lengths = pieces.map((piece) => Buffer.byteLength(piece, "utf8"));
  const total = lengths.reduce((a, b) => a + b, 0) + (pieces.length - 1) * base64.length;
  const line = allocate(total);
  let offset = 0;
  for (let i = 0; i < pieces.length; i++) {
    offset += line.write(pieces[i]!, offset, lengths[i], "utf8");
    if (i < pieces.length - 1) offset += line.write(base64, offset, base64.length, "latin1");
  }
  return line;
}
