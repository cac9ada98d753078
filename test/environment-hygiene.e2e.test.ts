// Environment hygiene through the real server and doctor (SPEC §23): the child really lacks what
// inherit/removeMatching dropped, system_environment and doctor list the names, never the values.

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-helpers.js";
import {
  baseEnv,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

const SECRET = "hygiene-value-SECRET-3f9a2e";
const NODE_DIR = path.dirname(process.execPath);

/** The host's environment: the usual names plus secrets in assorted spellings. */
const hostEnv = baseEnv({
  GITHUB_TOKEN: SECRET,
  Npm_Auth_Token: SECRET,
  db_password: SECRET,
  AWS_ACCESS_KEY_ID: SECRET,
  SSH_AUTH_SOCK: "/tmp/agent.sock",
  UNLISTED: SECRET,
  FORCE_COLOR: "1",
});

const manifest = {
  version: 2,
  searchPath: [NODE_DIR, "/usr/bin", "/bin"],
  environment: {
    inherit: ["SSH_AUTH_SOCK", "*TOKEN*", "*PASSWORD*", "AWS_*", "FORCE_COLOR", "XDG_*"],
    removeMatching: ["*_token", "AWS_*"],
    set: { NO_COLOR: "1" },
  },
  programs: {
    node: { candidates: [process.execPath], required: true },
    // Its own layer drops what the global one kept.
    clean: {
      candidates: [process.execPath],
      environment: { removeMatching: ["*password*", "force_*"] },
    },
  },
};

let dir: string;
let manifestFile: string;
let server: TestServer;

beforeAll(async () => {
  dir = tempDir("scm-hygiene-");
  manifestFile = writeManifest(dir, manifest);
  server = await startServer({
    args: ["--manifest", manifestFile, "--root", dir, "--artifact-dir", path.join(dir, "a")],
    env: hostEnv,
  });
});

afterAll(async () => {
  await server?.close();
  removeDir(dir);
});

/** The sorted variable names a program's child sees. */
async function childNames(program: string): Promise<string[]> {
  const result = await server.exec({
    program,
    args: ["-e", "console.log(JSON.stringify(Object.keys(process.env).sort()))"],
  });
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout.text);
}

describe("through the server", () => {
  it("children lack what inherit and removeMatching dropped", async () => {
    const node = await childNames("node");
    expect(node).toEqual(expect.arrayContaining(["PATH", "HOME", "SSH_AUTH_SOCK", "NO_COLOR"]));
    expect(node).toEqual(expect.arrayContaining(["db_password", "FORCE_COLOR"]));
    for (const gone of ["GITHUB_TOKEN", "Npm_Auth_Token", "AWS_ACCESS_KEY_ID", "UNLISTED"]) {
      expect(node).not.toContain(gone);
    }
    const clean = await childNames("clean");
    expect(clean).not.toContain("db_password");
    expect(clean).not.toContain("FORCE_COLOR");
    expect(clean).toContain("NO_COLOR");
  });

  it("system_environment lists the dropped names sorted, never a value", async () => {
    const result = await server.call("system_environment");
    const report = result.structuredContent as Record<string, any>;
    expect(report.removedByPattern).toEqual(
      [
        "AWS_ACCESS_KEY_ID",
        "FORCE_COLOR",
        "GITHUB_TOKEN",
        "Npm_Auth_Token",
        "UNLISTED",
        "db_password",
      ].sort(),
    );
    // Exact-name layers only: the patterns' victims are not environmentNames.
    expect(report.environmentNames).toEqual(["NO_COLOR"]);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});

describe("doctor", () => {
  it("shows the dropped names per program (JSON and text), never a value", () => {
    const args = ["doctor", "--manifest", manifestFile, "--root", dir];
    const json = runCli([...args, "--json"], { env: hostEnv });
    expect(json.status).toBe(0);
    const byName = Object.fromEntries(
      JSON.parse(json.stdout).programs.map((p: any) => [p.name, p]),
    );
    expect(byName.node.removedByPattern).toEqual(
      ["AWS_ACCESS_KEY_ID", "GITHUB_TOKEN", "Npm_Auth_Token", "UNLISTED"].sort(),
    );
    expect(byName.clean.removedByPattern).toEqual(
      [
        "AWS_ACCESS_KEY_ID",
        "FORCE_COLOR",
        "GITHUB_TOKEN",
        "Npm_Auth_Token",
        "UNLISTED",
        "db_password",
      ].sort(),
    );
    const text = runCli(args, { env: hostEnv });
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(
      "environment dropped by inherit/removeMatching: AWS_ACCESS_KEY_ID, FORCE_COLOR, GITHUB_TOKEN",
    );
    for (const output of [json.stdout, json.stderr, text.stdout, text.stderr]) {
      expect(output).not.toContain(SECRET);
    }
  });
});
