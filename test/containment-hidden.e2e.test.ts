// SPEC §20.1 items 4, 5, 6 and 8 as attacks through the real server and real bubblewrap, as root
// and as uid 65534, with HOME outside /tmp: the default hiddenPaths cover the credentials of
// item 5 (and `~/.docker` whole); a hidden path is unreadable in every mode wherever it lies (a
// Root under /tmp in read-only, a writable path, `full`); and `network: "deny"` also closes the
// unix sockets of host daemons under /run (a socket elsewhere stays reachable: a documented limit).

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  nodeProgram,
  shProgram,
  startContained,
  type ContainedServer,
} from "./helpers/containment.js";
import { attackDir, giveTo, identities, type AttackDir } from "./helpers/identity.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";
import { tempDir } from "./helpers/server.js";

/** The credentials §20.1 item 5 adds (files, and directories holding a file). */
const ITEM5_FILES = [
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".config/git/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".node_repl_history",
];
const ITEM5_DIRS = [".config/pip", ".docker", ".password-store", ".local/share/keyrings"];

/** What every secret holds, and what a readable control file holds. */
const SECRET = "SECRET-MATERIAL";
const VISIBLE = "VISIBLE-MATERIAL";

/** A shell loop printing each path's content (a file) or listing (a directory). */
function readAll(paths: string[]): string {
  const quoted = paths.map((p) => `'${p}'`).join(" ");
  return `for p in ${quoted}; do if [ -d "$p" ]; then ls -A "$p"; cat "$p"/* 2>/dev/null; else cat "$p"; fi; done; true`;
}

/** Writes a file (and its directories) owned by the identity. */
function plant(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  writeFileSync(file, text);
}

/** Connects to a unix socket from inside the sandbox: "connected" or the errno. */
function connectScript(sockets: Record<string, string>): string {
  return `
const net = require("net");
const names = ${JSON.stringify(sockets)};
const out = {};
let left = Object.keys(names).length;
for (const [name, file] of Object.entries(names)) {
  const socket = net.connect(file);
  const done = (what) => { out[name] = what; socket.destroy(); if (--left === 0) console.log(JSON.stringify(out)); };
  socket.once("connect", () => done("connected"));
  socket.once("error", (error) => done(error.code));
}`;
}

/** A listening unix socket server at `file` (mode 0777 so uid 65534 may connect). */
async function listenAt(file: string): Promise<net.Server> {
  const server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, resolve);
  });
  chmodSync(file, 0o777);
  return server;
}

describe.runIf(requireBwrapInCi())("hidden means hidden; deny closes /run (§20.1 4–6)", () => {
  describe.each(identities())("server as $name", (identity) => {
    let attack: AttackDir;
    let contained: ContainedServer;
    let wsRoot: string;
    let tmpRoot: string;
    let cache: string;
    let runDir: string;
    const sockets: net.Server[] = [];

    beforeAll(async () => {
      attack = attackDir(identity);
      wsRoot = attack.mkdir("root");
      cache = attack.mkdir("cache");
      tmpRoot = tempDir("scm-hidden-root-");
      chmodSync(tmpRoot, 0o755);
      runDir = mkdtempSync("/run/scm-test-");
      chmodSync(runDir, 0o755);
      mkdirSync(path.join(runDir, "cache"));
      for (const file of ITEM5_FILES) plant(path.join(attack.home, file), SECRET);
      for (const dir of ITEM5_DIRS) plant(path.join(attack.home, dir, "SECRET-entry"), SECRET);
      plant(path.join(attack.home, "visible.txt"), VISIBLE);
      for (const place of [wsRoot, tmpRoot, cache, attack.dir]) {
        plant(path.join(place, "secret.txt"), SECRET);
        plant(path.join(place, "secretdir", "inner.txt"), SECRET);
        plant(path.join(place, "visible.txt"), VISIBLE);
      }
      giveTo(identity, attack.dir);
      giveTo(identity, tmpRoot);
      giveTo(identity, path.join(runDir, "cache"));
      sockets.push(await listenAt(path.join(runDir, "daemon.sock")));
      sockets.push(await listenAt(path.join(attack.dir, "elsewhere.sock")));
      const hide = (place: string) => [
        path.join(place, "secret.txt"),
        path.join(place, "secretdir"),
      ];
      contained = await startContained({
        identity,
        attack,
        roots: [wsRoot, tmpRoot],
        programs: {
          defaults: shProgram({ filesystem: "read-only" }),
          "read-only": shProgram({ filesystem: "read-only", hiddenPaths: hide(tmpRoot) }),
          "workspace-write": shProgram({
            filesystem: "workspace-write",
            writablePaths: [cache],
            hiddenPaths: [...hide(wsRoot), ...hide(cache)],
          }),
          full: shProgram({
            filesystem: "full",
            hiddenPaths: [...hide(attack.dir), ...hide(tmpRoot)],
          }),
          offline: nodeProgram({
            filesystem: "workspace-write",
            network: "deny",
            writablePaths: [path.join(runDir, "cache")],
          }),
          online: nodeProgram({ filesystem: "workspace-write" }),
        },
      });
    });

    afterAll(async () => {
      await contained?.server.close();
      for (const server of sockets) server.close();
      attack?.remove();
      if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
      if (runDir) rmSync(runDir, { recursive: true, force: true });
    });

    it("the default hiddenPaths cover item 5's credentials, ~/.docker whole", async () => {
      const home = attack.home;
      const targets = [...ITEM5_FILES, ...ITEM5_DIRS].map((p) => path.join(home, p));
      const run = await contained.sh(
        "defaults",
        readAll([...targets, `${home}/visible.txt`]),
        wsRoot,
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).not.toContain("SECRET");
      expect(run.stdout).toContain(VISIBLE);
    });

    it.each([
      ["read-only", "a Root under /tmp", () => tmpRoot],
      ["workspace-write", "a writable Root", () => wsRoot],
      ["workspace-write", "a writable path", () => cache],
      ["full", "an ordinary directory", () => attack.dir],
      ["full", "the host's /tmp", () => tmpRoot],
    ])("%s: a hidden path in %s is unreadable", async (program, _where, place) => {
      const dir = place();
      const paths = ["secret.txt", "secretdir", "visible.txt"].map((p) => path.join(dir, p));
      const run = await contained.sh(program, readAll(paths), wsRoot);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).not.toContain("SECRET");
      expect(run.stdout).toContain(VISIBLE);
    });

    it("network deny: a daemon's socket under /run is gone; one elsewhere stays reachable", async () => {
      const targets = {
        run: path.join(runDir, "daemon.sock"),
        elsewhere: path.join(attack.dir, "elsewhere.sock"),
      };
      const offline = await contained.node("offline", connectScript(targets), wsRoot);
      expect(offline.exitCode, offline.stderr).toBe(0);
      expect(JSON.parse(offline.stdout)).toEqual({ run: "ENOENT", elsewhere: "connected" });
      // The same socket is reachable with the network allowed: the test's daemon really listens.
      const online = await contained.node("online", connectScript(targets), wsRoot);
      expect(JSON.parse(online.stdout)).toEqual({ run: "connected", elsewhere: "connected" });
    });

    it("network deny: /run is read-only, and a writable path inside it is bound again", async () => {
      const kept = path.join(runDir, "cache", "kept.txt");
      const script =
        `const fs = require("fs"); fs.writeFileSync(${JSON.stringify(kept)}, "kept");` +
        `try { fs.writeFileSync("/run/planted", "x"); console.log("planted") } catch (e) { console.log(e.code) }`;
      const run = await contained.node("offline", script, wsRoot);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe("EROFS");
      expect(readFileSync(kept, "utf8")).toBe("kept");
    });
  });
});
