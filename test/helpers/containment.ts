// Shared pieces of the containment attack tests (SPEC §20.1): a confined server started as one
// attack identity in its own attack directory (outside /tmp), and a way to run an attack script
// inside the sandbox and see how it ended.

import path from "node:path";
import { giveTo, type AttackDir, type Identity } from "./identity.js";
import { CLI_ENTRY, startServer, writeManifest, type TestServer } from "./server.js";

/** The PATH every confined test program sees. */
export const TEST_SEARCH_PATH = [path.dirname(process.execPath), "/usr/bin", "/bin"];

/** A manifest of `programs` on TEST_SEARCH_PATH, with any other top-level keys in `extra`. */
export function containedManifest(
  programs: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): object {
  return { version: 2, searchPath: TEST_SEARCH_PATH, ...extra, programs };
}

/** How one attack inside the sandbox ended. */
export interface Attempt {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** A confined server of one identity, with the manifest it was started with. */
export interface ContainedServer {
  server: TestServer;
  manifestPath: string;
  /** Runs `sh -c script` as `program` (a registered /bin/sh) with the cwd given. */
  sh(program: string, script: string, cwd: string): Promise<Attempt>;
  /** Runs `node -e script` as `program` (a registered node). */
  node(program: string, script: string, cwd: string): Promise<Attempt>;
}

/** Options of one contained server. */
export interface ContainedOptions {
  identity: Identity;
  attack: AttackDir;
  /** The manifest's programs (each with its sandbox). */
  programs: Record<string, unknown>;
  /** The Roots; default the attack directory's `root`. */
  roots: string[];
  /** Where the manifest is written (a directory); default the attack directory. */
  manifestDir?: string;
  /** Extra serve flags. */
  extra?: string[];
  /** Extra environment of the server. */
  env?: Record<string, string>;
  /** The top-level sandbox (default none). */
  sandbox?: Record<string, unknown>;
}

/** Starts the real server as the identity with the programs given. */
export async function startContained(options: ContainedOptions): Promise<ContainedServer> {
  const manifestPath = writeManifest(
    options.manifestDir ?? options.attack.dir,
    containedManifest(options.programs, options.sandbox && { sandbox: options.sandbox }),
  );
  giveTo(options.identity, manifestPath); // the attacker's own file: only the sandbox stops it
  const args = ["--manifest", manifestPath];
  for (const root of options.roots) args.push("--root", root);
  args.push(...(options.extra ?? []));
  const server = await startServer({
    args,
    env: options.attack.env(options.env),
    runAs: options.identity,
  });
  const attempt = async (program: string, args: string[], cwd: string): Promise<Attempt> => {
    const result = await server.exec({ program, args, cwd, timeoutMs: 30_000 });
    return { exitCode: result.exitCode, stdout: result.stdout.text, stderr: result.stderr.text };
  };
  return {
    server,
    manifestPath,
    sh: (program, script, cwd) => attempt(program, ["-c", script], cwd),
    node: (program, script, cwd) => attempt(program, ["-e", script], cwd),
  };
}

/** A registered /bin/sh with a sandbox. */
export function shProgram(sandbox: Record<string, unknown> | null): Record<string, unknown> {
  return { candidates: ["/bin/sh"], sandbox };
}

/** A registered node (this test's) with a sandbox. */
export function nodeProgram(sandbox: Record<string, unknown> | null): Record<string, unknown> {
  return { candidates: [process.execPath], sandbox };
}

/** `serve` run to completion as the identity (`attack` is its directory; stdin closed): startup refusals. */
export function serveOnce(
  identity: Identity,
  attack: AttackDir,
  manifest: object,
  roots: string[],
): { status: number | null; stdout: string; stderr: string } {
  const manifestPath = writeManifest(attack.dir, manifest);
  giveTo(identity, manifestPath);
  const args = [CLI_ENTRY, "serve", "--manifest", manifestPath];
  for (const root of roots) args.push("--root", root);
  const run = attack.run(process.execPath, args);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
