// A tiny HTTP server on 127.0.0.1 (ephemeral port) for the model-API mocks: it reads each
// request body whole and hands it to the mock; anything the mock throws becomes a 500 and a
// recorded error, so a test sees it instead of a hung host.

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A mock's answer to one request (method, path with query, raw body). */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `METHOD path` of every request, in order (diagnostics: outside calls the host made). */
  paths: string[];
  errors: string[];
  close(): Promise<void>;
}

/** Start `handler` on 127.0.0.1 only. */
export async function startLoopback(handler: Handler): Promise<Loopback> {
  const paths: string[] = [];
  const errors: string[] = [];
  const server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      try {
        handler(req, res, body);
      } catch (error) {
        errors.push(`${req.method} ${req.url}: ${String(error)}`);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end('{"error":{"type":"api_error","message":"mock failed"}}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    paths,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** A scripted model API as a test sees it (the Anthropic and Gemini mocks). */
export interface MockModel<R> {
  /** The API origin the host is pointed at. */
  origin: string;
  /** What the host sent, one entry per model request the script answered. */
  requests: R[];
  /** Script and server errors; a passing session has none. */
  errors: string[];
  /** Every `METHOD path` the host asked for. */
  paths: string[];
  close(): Promise<void>;
}

/** The test's view of a mock served by `server` and driven by `script`. */
export function mockModel<R>(
  server: Loopback,
  script: { errors: string[] },
  requests: R[],
): MockModel<R> {
  return {
    origin: server.origin,
    requests,
    get errors() {
      return [...script.errors, ...server.errors];
    },
    paths: server.paths,
    close: () => server.close(),
  };
}
