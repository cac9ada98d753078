// Shared steps of the sealed-audit tests (SPEC §22.1): sessions of the real server appending to one
// log as an attack identity, the CLI run as that identity, and reading a log's records.

import { readFileSync } from "node:fs";
import path from "node:path";
import type { AttackDir, Identity } from "./helpers/identity.js";
import {
  CLI_ENTRY,
  defaultManifest,
  eventually,
  isAlive,
  startServer,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

type Json = Record<string, any>;

/** A log's records, parsed. */
export function records(file: string): Json[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Json);
}

/** What one CLI run as the identity printed. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `system-command-mcp …args` as the identity. */
export function cliAs(attack: AttackDir, args: string[]): CliResult {
  const run = attack.run(process.execPath, [CLI_ENTRY, ...args]);
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `audit seal LOG` as the identity; returns the verification key it printed (hex). */
export function seal(attack: AttackDir, log: string, extra: string[] = []): string {
  const run = cliAs(attack, ["audit", "seal", log, ...extra]);
  const key = /\b([0-9a-f]{64})\b/.exec(run.stdout)?.[1];
  if (run.status !== 0 || key === undefined) {
    throw new Error(
      `audit seal: expected exit 0 and a 64-hex key, got ${run.status}: ${run.stdout}${run.stderr}`,
    );
  }
  return key;
}

/** A copy of a file beside it, made by the identity (so it owns the copy), for one edit. */
export function copyOf(attack: AttackDir, file: string, name: string): string {
  const target = path.join(path.dirname(file), name);
  const run = attack.run("cp", [file, target]);
  if (run.status !== 0) throw new Error(`cp ${file} ${target}: exit ${run.status}: ${run.stderr}`);
  return target;
}

/** The server as the identity, appending to `log`, with the default programs and `extra` flags. */
export async function auditServer(
  attack: AttackDir,
  identity: Identity,
  log: string,
  manifest: Json = defaultManifest() as Json,
): Promise<TestServer> {
  const root = attack.mkdir("root");
  const file = writeManifest(attack.dir, manifest);
  return startServer({
    args: [
      "--manifest",
      file,
      "--root",
      root,
      "--artifact-dir",
      path.join(attack.dir, "artifacts"),
      "--audit-log",
      log,
    ],
    env: attack.env(),
    runAs: identity,
  });
}

/** Closes a server and waits until its process is gone (its chain-end is then written). */
export async function closeAndWait(server: TestServer): Promise<void> {
  await server.close();
  if (!(await eventually(() => !isAlive(server.pid)))) {
    throw new Error(`the server ${server.pid} still runs 10 s after its client closed`);
  }
}

/** One short session: a successful call and one exiting 3, then a clean close. */
export async function session(attack: AttackDir, identity: Identity, log: string): Promise<void> {
  const server = await auditServer(attack, identity, log);
  try {
    await server.exec({ program: "true" });
    const failed = await server.exec({ program: "node", args: ["-e", "process.exit(3)"] });
    if (failed.exitCode !== 3) throw new Error(`expected exit code 3, got ${failed.exitCode}`);
  } finally {
    await closeAndWait(server);
  }
}
