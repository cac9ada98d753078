// The identities an attack runs under (SPEC §20.1 item 8): the server as root (CI, containers) and
// as an ordinary user. As root the unprivileged variant is uid/gid 65534 through `setpriv`; as an
// ordinary user the only variant is that user. Attack directories live outside /tmp (a confined
// program has a private /tmp, so a target there would be out of reach for the wrong reason) and
// belong to the identity, with HOME and every XDG_* directory inside them.

import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { baseEnv, startServer, writeManifest, type TestServer } from "./server.js";

/** The uid/gid of the unprivileged identity when the tests run as root. */
export const NOBODY_ID = 65534;

/** Where attack directories are made: outside /tmp, on the host's real filesystem. */
export const ATTACK_BASE = process.env.SCM_ATTACK_BASE ?? "/var/tmp";

/** One identity the server (and the CLI commands an attack runs) can run as. */
export interface Identity {
  readonly name: "root" | "unprivileged";
  /** Set when the identity is entered with setpriv (the tests run as root). */
  readonly uid?: number;
  readonly gid?: number;
  /** Wraps a command so that it runs as this identity. */
  wrap(command: string, args: string[]): { command: string; args: string[] };
}

function self(name: Identity["name"]): Identity {
  return { name, wrap: (command, args) => ({ command, args }) };
}

function setprivAs(id: number): Identity {
  return {
    name: "unprivileged",
    uid: id,
    gid: id,
    wrap: (command, args) => ({
      command: "setpriv",
      args: ["--reuid", String(id), "--regid", String(id), "--clear-groups", command, ...args],
    }),
  };
}

/** Every identity this machine can run an attack as: root and uid 65534 when we are root. */
export function identities(): Identity[] {
  const root = process.getuid?.() === 0;
  return root ? [self("root"), setprivAs(NOBODY_ID)] : [self("unprivileged")];
}

/** Hands `target` (and everything below it) to the identity; a no-op for the current user. */
export function giveTo(identity: Identity, target: string): void {
  if (identity.uid === undefined) return;
  const visit = (entry: string) => {
    chownSync(entry, identity.uid!, identity.gid!);
    let children: string[] = [];
    try {
      children = readdirSync(entry);
    } catch {
      return; // not a directory
    }
    for (const child of children) visit(path.join(entry, child));
  };
  visit(target);
}

/** An attack workspace owned by the identity, outside /tmp. */
export interface AttackDir {
  /** The directory (real path). */
  readonly dir: string;
  /** HOME inside it. */
  readonly home: string;
  /** The server's environment: HOME and XDG_* inside `dir`, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Makes a directory below `dir` owned by the identity, returning its path. */
  mkdir(relative: string): string;
  /** Runs a command (the CLI, a helper) synchronously as the identity. */
  run(
    command: string,
    args: string[],
    options?: { env?: Record<string, string>; input?: string; cwd?: string },
  ): SpawnSyncReturns<string>;
  /** Removes the directory and everything in it. */
  remove(): void;
}

/** Makes an attack directory for `identity` (mode 0755 so that uid 65534 can reach it). */
export function attackDir(identity: Identity, prefix = "scm-attack-"): AttackDir {
  mkdirSync(ATTACK_BASE, { recursive: true });
  const dir = realpathSync(mkdtempSync(path.join(ATTACK_BASE, prefix)));
  spawnSync("chmod", ["0755", dir]);
  giveTo(identity, dir);
  const mkdir = (relative: string) => {
    const target = path.join(dir, relative);
    mkdirSync(target, { recursive: true, mode: 0o755 });
    let walk = target;
    while (walk.startsWith(dir) && walk !== dir) {
      giveTo(identity, walk);
      walk = path.dirname(walk);
    }
    return target;
  };
  const home = mkdir("home");
  const xdg = {
    XDG_STATE_HOME: mkdir("home/.local/state"),
    XDG_CACHE_HOME: mkdir("home/.cache"),
    XDG_CONFIG_HOME: mkdir("home/.config"),
    XDG_DATA_HOME: mkdir("home/.local/share"),
  };
  const env = (extra: Record<string, string> = {}) => ({
    ...baseEnv(),
    HOME: home,
    ...xdg,
    ...extra,
  });
  return {
    dir,
    home,
    env,
    mkdir,
    run: (command, args, options = {}) => {
      const launch = identity.wrap(command, args);
      return spawnSync(launch.command, launch.args, {
        encoding: "utf8",
        env: options.env ?? env(),
        input: options.input ?? "",
        cwd: options.cwd ?? dir,
        timeout: 60_000,
      });
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `serve` arguments for a server of an attack directory: `manifest` written into it, `root` the
 * one Root, and the artifact store at `a` inside it.
 */
export function attackServeArgs(attack: AttackDir, manifest: object, root: string): string[] {
  const manifestPath = writeManifest(attack.dir, manifest);
  return ["--manifest", manifestPath, "--root", root, "--artifact-dir", path.join(attack.dir, "a")];
}

/** The real server as `identity`, on attackServeArgs, with the attack directory's environment. */
export function startServerAs(
  identity: Identity,
  attack: AttackDir,
  manifest: object,
  root: string,
): Promise<TestServer> {
  return startServer({
    args: attackServeArgs(attack, manifest, root),
    env: attack.env(),
    runAs: identity,
  });
}
