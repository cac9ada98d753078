// The paging floor of §16: a server that answers every `tools/call` with a page message of the
// shape system_output gives (the base64 in structuredContent and in the pretty text block), but
// does no work for it: the page's base64 is encoded once at start and written from one Buffer.
// Driven by the same bench client, it shows what paging costs the client and the pipe alone.
// `node page-server.mjs <totalBytes>`; pages are of the bytes of /dev/zero, as the artifact.

import readline from "node:readline";

const totalBytes = Number(process.argv[2]);
const TOKEN = "PAGE-TOKEN-7f3a";
const encoded = new Map(); // page size → base64 Buffer, encoded once

const reply = (message) => process.stdout.write(JSON.stringify(message) + "\n");

function page(id, args) {
  const offset = Number(args.offset ?? 0);
  const bytes = Math.max(0, Math.min(Number(args.limit), totalBytes - offset));
  if (!encoded.has(bytes)) encoded.set(bytes, Buffer.from(Buffer.alloc(bytes).toString("base64")));
  const value = {
    id: args.id,
    stream: args.stream,
    offset,
    bytes,
    nextOffset: offset + bytes,
    eof: offset + bytes === totalBytes,
    encoding: "base64",
    base64: TOKEN,
  };
  const content = [{ type: "text", text: JSON.stringify(value, null, 2) }];
  const line = JSON.stringify({
    result: { content, structuredContent: value },
    jsonrpc: "2.0",
    id,
  });
  const pieces = line.split(TOKEN);
  process.stdout.cork();
  pieces.forEach((piece, index) => {
    if (index > 0) process.stdout.write(encoded.get(bytes));
    process.stdout.write(index === pieces.length - 1 ? piece + "\n" : piece);
  });
  process.stdout.uncork();
}

readline.createInterface({ input: process.stdin }).on("line", (text) => {
  const message = JSON.parse(text);
  if (message.id === undefined) return;
  if (message.method === "initialize") {
    reply({
      jsonrpc: "2.0",
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "page-floor-reference", version: "0.0.0" },
      },
    });
  } else if (message.method === "tools/call") {
    page(message.id, message.params.arguments);
  } else {
    reply({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "unknown method" } });
  }
});
