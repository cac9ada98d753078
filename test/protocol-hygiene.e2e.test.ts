// stdout carries only JSON-RPC; stderr never carries arguments, input or environment values
// (SPEC §2, §15).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRawServer, type RawServer } from "./helpers/raw-server.js";
import { baseEnv, configuredArgs, removeDir, tempDir } from "./helpers/server.js";

const SECRET_ARG = "sk-ARGUMENT-SECRET-4f1b2c";
const SECRET_INPUT = "INPUT-SECRET-9a8b7c";
const SECRET_ENV = "ENV-SECRET-VALUE-77d3";
const SECRET_OUTPUT = "OUTPUT-SECRET-1e2f";

let dir: string;
let server: RawServer;

beforeAll(async () => {
  dir = tempDir();
  server = startRawServer(
    configuredArgs(dir, undefined, ["--max-output-bytes", "64"]),
    baseEnv({ API_TOKEN: SECRET_ENV, OPENAI_API_KEY: SECRET_ENV }),
  );
  await server.initialize();
});

afterAll(async () => {
  server.child.stdin.end();
  await server.exited;
  removeDir(dir);
});

let nextId = 10;
async function call(name: string, args: Record<string, unknown>) {
  const id = nextId++;
  server.callTool(id, name, args);
  return server.response(id);
}

describe("protocol hygiene", () => {
  it("writes nothing but JSON-RPC lines to stdout, and no secret to stderr", async () => {
    const script = `process.stdout.write("${SECRET_OUTPUT}".repeat(50)); process.stderr.write("${SECRET_OUTPUT}"); console.log(process.env.API_TOKEN)`;
    await call("system_exec", { program: "node", args: ["-e", script, SECRET_ARG] });
    await call("system_exec", { program: "cat", input: SECRET_INPUT });
    await call("system_exec", { program: "node", args: ["-e", "process.exit(3)", SECRET_ARG] });
    await call("system_exec", { program: "nope", args: [SECRET_ARG] });
    await call("system_exec", { program: "node", args: [SECRET_ARG], cwd: "/nonexistent" });
    await call("system_exec", {
      program: "sh",
      args: ["-c", "sleep 5", SECRET_ARG],
      timeoutMs: 50,
    });
    await call("system_environment", {});
    await call("system_output", { id: "../../etc/passwd", stream: "stdout", offset: 0 });
    server.send({ jsonrpc: "2.0", id: 99, method: "tools/list" });
    await server.response(99);

    const raw = server.stdoutBytes().toString("utf8");
    expect(raw.endsWith("\n")).toBe(true);
    for (const line of raw.split("\n").slice(0, -1)) {
      const message = JSON.parse(line);
      expect(message.jsonrpc).toBe("2.0");
    }
    const stderr = server.stderr();
    for (const secret of [SECRET_ARG, SECRET_INPUT, SECRET_ENV, SECRET_OUTPUT]) {
      expect(stderr).not.toContain(secret);
    }
  });

  it("never reports environment values in system_environment", async () => {
    const response = await call("system_environment", {});
    expect(JSON.stringify(response)).not.toContain(SECRET_ENV);
  });
});
