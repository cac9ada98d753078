// Confinement through the real server (SPEC §20): what a confined program can and cannot touch,
// that its whole tree dies with the sandbox, and that startup fails closed.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registryIn } from "./helpers/crash-registry.js";
import { startRawServer } from "./helpers/raw-server.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";
import {
  baseEnv,
  CLI_ENTRY,
  configuredArgs,
  eventually,
  FIXTURES,
  removeDir,
  startServer,
  tempDir,
  writeManifest,
  type TestServer,
} from "./helpers/server.js";

/** Host pids whose command line holds `token` (a marker no other process carries). */
function pidsWithToken(token: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "latin1");
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.split("\0").includes(token) && state !== "Z") found.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return found.filter((pid) => pid > 1 && pid !== process.pid);
}

/** Kills leftovers of a failed test (pids from /proc, never from possibly empty output). */
function killToken(token: string): void {
  for (const pid of pidsWithToken(token)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** A token that names one test's processes: a sleep duration nothing else uses. */
function sleepToken(): string {
  return `3000.${Math.floor(Math.random() * 1e9)}`;
}

/** `serve` flags for the file's manifest in `dir`, with `dir` as the Root and its artifacts. */
function serveArgs(dir: string): string[] {
  return configuredArgs(dir, manifestFor());
}

function manifestFor(extra: Record<string, unknown> = {}): object {
  return {
    version: 2,
    searchPath: [path.dirname(process.execPath), "/usr/bin", "/bin"],
    sandbox: { filesystem: "workspace-write" },
    programs: {
      sh: { candidates: ["/bin/sh"], policy: { allowBackground: true } },
      node: { candidates: [process.execPath] },
      offline: {
        candidates: [process.execPath],
        sandbox: { filesystem: "workspace-write", network: "deny" },
      },
      reader: { candidates: ["/bin/sh"], sandbox: { filesystem: "read-only" } },
      free: { candidates: ["/bin/sh"], sandbox: null },
      ...extra,
    },
  };
}

describe.runIf(requireBwrapInCi())("confinement through the real server", () => {
  let dir: string;
  let home: string;
  let outside: string;
  let server: TestServer;

  beforeAll(async () => {
    dir = tempDir("scm-confined-");
    home = tempDir("scm-home-");
    // Outside every Root and outside /tmp (which the sandbox replaces with its own).
    outside = mkdtempSync(path.join("/var/tmp", "scm-outside-"));
    mkdirSync(path.join(home, ".ssh"));
    writeFileSync(path.join(home, ".ssh", "id_ed25519"), "PRIVATE-KEY-MATERIAL\n");
    const args = serveArgs(dir);
    server = await startServer({ args, env: baseEnv({ HOME: home }) });
  });

  afterAll(async () => {
    await server?.close();
    removeDir(dir);
    removeDir(home);
    removeDir(outside);
  });

  it("a write inside the Root works; outside it fails with a nonzero exit and no file", async () => {
    const inside = path.join(dir, "inside.txt");
    const escaped = path.join(outside, "escaped.txt");
    const ok = await server.exec({ program: "sh", args: ["-c", `echo in > '${inside}'`] });
    expect(ok.exitCode).toBe(0);
    expect(readFileSync(inside, "utf8")).toBe("in\n");
    expect(ok.programSelection).toEqual({
      logicalName: "sh",
      executable: expect.any(String),
      sandbox: { adapter: "bubblewrap", filesystem: "workspace-write", network: "allow" },
    });
    expect(ok.programSelection.executable).not.toContain("bwrap");

    const refused = await server.exec({ program: "sh", args: ["-c", `echo out > '${escaped}'`] });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr.text).toMatch(/Read-only file system/);
    expect(existsSync(escaped)).toBe(false);

    // read-only: the Root (below /tmp here) is readable and is the cwd, but not writable.
    const readOnly = await server.exec({
      program: "reader",
      args: ["-c", `cat inside.txt; pwd; echo x > ro.txt`],
    });
    expect(readOnly.exitCode).not.toBe(0);
    expect(readOnly.stdout.text).toBe(`in\n${dir}\n`);
    expect(readOnly.stderr.text).toMatch(/Read-only file system/);
    expect(existsSync(path.join(dir, "ro.txt"))).toBe(false);
  });

  it("/tmp is private to the execution, TMPDIR is /tmp, and it is removed at the end", async () => {
    const marker = `scm-host-marker-${process.pid}-${Date.now()}`;
    writeFileSync(path.join("/tmp", marker), "host");
    const innerName = `scm-inner-${process.pid}-${Date.now()}`;
    const area = path.join(os.tmpdir(), `system-command-mcp-sandbox-${process.getuid!()}`);
    const ours = () => readdirSync(area).filter((name) => name.startsWith(`x-${server.pid}-`));
    const before = ours(); // at most the spare made after the last confined call
    try {
      const result = await server.exec({
        program: "sh",
        args: [
          "-c",
          `test -e /tmp/${marker} && echo host-visible; echo "$TMPDIR"; echo inner > /tmp/${innerName} && cat /tmp/${innerName}`,
        ],
      });
      expect(result.exitCode).toBe(0);
      expect(result.stdout.text).toBe("/tmp\ninner\n");
      expect(existsSync(path.join("/tmp", innerName))).toBe(false);
      // Removed right after the result (not before it is sent: that would cost every call);
      // what stays is the one spare made for the next call, fresh (without the run's file).
      const removed = () => {
        const left = ours();
        return left.length <= 1 && left.every((name) => !before.includes(name));
      };
      expect(await eventually(removed, 5_000)).toBe(true);
      for (const name of ours()) expect(readdirSync(path.join(area, name, "tmp"))).toEqual([]);
    } finally {
      removeDir(path.join("/tmp", marker));
    }
  });

  it("a hidden ~/.ssh reads as empty; the server's artifact directory is hidden too", async () => {
    const key = path.join(home, ".ssh", "id_ed25519");
    const result = await server.exec({
      program: "sh",
      args: ["-c", `cat '${key}'; echo "cat=$?"; ls -A '${path.join(home, ".ssh")}' | wc -l`],
    });
    expect(result.stdout.text).not.toContain("PRIVATE-KEY-MATERIAL");
    expect(result.stdout.text).toMatch(/cat=[1-9]\d*\n0\n$/);
    mkdirSync(path.join(dir, "artifacts"), { recursive: true });
    const store = await server.exec({
      program: "sh",
      args: ["-c", `ls -A '${path.join(dir, "artifacts")}' | wc -l; touch '${dir}/artifacts/x'`],
    });
    expect(store.stdout.text).toBe("0\n");
    expect(store.exitCode).not.toBe(0);
    expect(existsSync(path.join(dir, "artifacts", "x"))).toBe(false);
  });

  it(".git/hooks stays read-only inside a writable Root; the rest of .git is writable", async () => {
    mkdirSync(path.join(dir, ".git", "hooks"), { recursive: true });
    const result = await server.exec({
      program: "sh",
      args: ["-c", "echo ok > .git/notes.txt && echo evil > .git/hooks/pre-commit"],
    });
    expect(result.exitCode).not.toBe(0);
    expect(readFileSync(path.join(dir, ".git", "notes.txt"), "utf8")).toBe("ok\n");
    expect(existsSync(path.join(dir, ".git", "hooks", "pre-commit"))).toBe(false);
  });

  it('network: "deny" cannot reach a loopback server started outside; "allow" can', async () => {
    const http: ChildProcess = spawn(process.execPath, [path.join(FIXTURES, "http-server.mjs")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      let out = "";
      http.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
      expect(await eventually(() => /listening on \d+/.test(out), 20_000)).toBe(true);
      const port = /listening on (\d+)/.exec(out)![1];
      const script =
        `fetch("http://127.0.0.1:${port}/").then(async (r) => { console.log(await r.text()); }, ` +
        `(e) => { console.log("refused", e.cause?.code ?? e.message); process.exit(3); })`;
      const denied = await server.exec({ program: "offline", args: ["-e", script] });
      expect(denied.exitCode).toBe(3);
      expect(denied.stdout.text).toMatch(/^refused/);
      expect(denied.programSelection.sandbox.network).toBe("deny");
      const allowed = await server.exec({ program: "node", args: ["-e", script] });
      expect(allowed.exitCode).toBe(0);
      expect(allowed.stdout.text).toMatch(/^hello from \d+/);
    } finally {
      http.kill("SIGKILL");
    }
  });

  it("artifacts work unchanged: a confined run's truncated output is published and pages back", async () => {
    const result = await server.exec({
      program: "node",
      args: ["-e", "process.stdout.write('x'.repeat(200000))"],
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.truncated).toBe(true);
    expect(result.artifact.status).toBe("published");
    const reply = await server.call("system_output", {
      id: result.artifact.id,
      stream: "stdout",
      offset: 199_990,
    });
    expect(reply.isError, JSON.stringify(reply.content)).toBeFalsy();
    const page = reply.structuredContent as any;
    expect(page, JSON.stringify(page)).toMatchObject({ text: "x".repeat(10) });
    expect(page.nextOffset).toBe(200_000);
  });

  it("arguments with shell metacharacters arrive literally", async () => {
    const args = ["; rm -rf / #", "$(id)", "`whoami`", "a | b && c", "*", "'\"", "--bind", "$HOME"];
    const result = await server.exec({
      program: "node",
      args: ["-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", ...args],
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.text)).toEqual(args);
  });

  it("a descendant that called setsid() is gone after a timeout, with treeCleaned: true", async () => {
    const token = sleepToken();
    try {
      const result = await server.exec({
        program: "sh",
        args: [
          "-c",
          `setsid sleep ${token} & ` +
            `while ! grep -qs '${token}' /proc/[0-9]*/cmdline; do sleep 0.02; done; echo ready; sleep 300`,
        ],
        timeoutMs: 5_000,
      });
      expect(result.stdout.text).toBe("ready\n"); // the escaped descendant was running
      expect(result.timedOut).toBe(true);
      expect(result.termination.treeCleaned).toBe(true);
      expect(pidsWithToken(token)).toEqual([]);
    } finally {
      killToken(token);
    }
  });

  it('"sandbox": null runs unconfined: it writes outside the Root and reports no sandbox', async () => {
    const free = path.join(outside, "free.txt");
    const result = await server.exec({ program: "free", args: ["-c", `echo free > '${free}'`] });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(free, "utf8")).toBe("free\n");
    expect(result.programSelection.sandbox).toBeUndefined();
  });

  it("system_environment reports the adapter and each program's effective policy", async () => {
    const report = (await server.call("system_environment")).structuredContent as any;
    expect(report.sandbox).toEqual({
      adapter: "bubblewrap",
      version: expect.stringMatching(/^\d+\.\d+/),
      path: expect.stringMatching(/bwrap$/),
    });
    expect(report.programs.free.sandbox).toBeNull();
    expect(report.programs.sh.sandbox).toEqual({
      filesystem: "workspace-write",
      writablePaths: [],
      hiddenPaths: expect.arrayContaining([path.join(home, ".ssh"), path.join(home, ".netrc")]),
      protectedPaths: [".git/hooks", ".git/config"],
      network: "allow",
    });
    expect(report.programs.offline.sandbox.network).toBe("deny");
  });

  it("yield and background: a confined execution hands out a handle, then completes", async () => {
    const yielded = await server.exec({
      program: "sh",
      args: ["-c", "echo start; sleep 1; echo end"],
      yieldMs: 100,
      timeoutMs: 30_000,
    });
    expect(yielded.status).toBe("running");
    expect(yielded.programSelection.sandbox.adapter).toBe("bubblewrap");
    const done = (await server.call("system_wait", { executionId: yielded.executionId }))
      .structuredContent as any;
    expect(done.status).toBe("completed");
    expect(done.exitCode).toBe(0);
    expect(done.stdout.text).toBe("start\nend\n");

    const token = sleepToken();
    try {
      const bg = await server.exec({
        program: "sh",
        args: ["-c", `setsid sleep ${token} & echo up; sleep 300`],
        background: true,
      });
      expect(bg.status).toBe("running");
      const up = (
        await server.call("system_wait", {
          executionId: bg.executionId,
          until: { pattern: "^up$" },
          waitMs: 20_000,
        })
      ).structuredContent as any;
      expect(up.match?.text).toBe("up");
      expect(await eventually(() => pidsWithToken(token).length === 1, 10_000)).toBe(true);
      const cancelled = (await server.call("system_cancel", { executionId: bg.executionId }))
        .structuredContent as any;
      expect(cancelled.status).toBe("completed");
      expect(cancelled.cancelled).toBe(true);
      expect(cancelled.termination.treeCleaned).toBe(true);
      expect(pidsWithToken(token)).toEqual([]);
    } finally {
      killToken(token);
    }
  });
});

describe.runIf(requireBwrapInCi())("confinement at startup and after a crash", () => {
  let dir: string;

  beforeAll(() => {
    dir = tempDir("scm-confined-start-");
  });

  afterAll(() => removeDir(dir));

  function serveOnce(manifest: object, env = baseEnv()) {
    return spawnSync(
      process.execPath,
      [CLI_ENTRY, "serve", "--manifest", writeManifest(dir, manifest), "--root", dir],
      { encoding: "utf8", input: "", timeout: 30_000, env },
    );
  }

  it("bwrapPath pointing nowhere stops startup with SANDBOX_UNAVAILABLE", () => {
    const run = serveOnce({
      version: 2,
      sandbox: { filesystem: "read-only", bwrapPath: "/nonexistent/bin/bwrap" },
      programs: { sh: { candidates: ["/bin/sh"] } },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/SANDBOX_UNAVAILABLE: .*\/nonexistent\/bin\/bwrap/);
    expect(run.stdout).toBe("");
  });

  it("bwrap missing from the startup PATH stops startup; a manifest confining nothing does not", () => {
    const env = baseEnv({ PATH: path.join(dir, "empty-path") });
    const confined = serveOnce(
      {
        version: 2,
        sandbox: { filesystem: "full" },
        programs: { sh: { candidates: ["/bin/sh"] } },
      },
      env,
    );
    expect(confined.status).toBe(1);
    expect(confined.stderr).toMatch(/SANDBOX_UNAVAILABLE: bubblewrap \(bwrap\) is not installed/);
    const unconfined = serveOnce(
      { version: 2, sandbox: null, programs: { sh: { candidates: ["/bin/sh"] } } },
      env,
    );
    expect(unconfined.status).toBe(0);
  });

  it("doctor reports the adapter, its probe and each program's policy; --execute runs probes confined", () => {
    const outside = mkdtempSync(path.join("/var/tmp", "scm-doctor-"));
    try {
      const target = path.join(outside, "probe.txt");
      const manifest = writeManifest(dir, {
        version: 2,
        sandbox: { filesystem: "workspace-write" },
        programs: {
          touch: { candidates: ["/usr/bin/touch", "/bin/touch"], required: true },
          free: { candidates: ["/bin/sh"], required: true, sandbox: null },
        },
        probes: { touch: { args: [target] }, free: { args: ["-c", "exit 0"] } },
      });
      const run = spawnSync(
        process.execPath,
        [CLI_ENTRY, "doctor", "--manifest", manifest, "--root", dir, "--execute", "--json"],
        { encoding: "utf8", timeout: 30_000, env: baseEnv() },
      );
      const report = JSON.parse(run.stdout);
      expect(report.sandbox).toMatchObject({ adapter: "bubblewrap", probe: "passed" });
      const byName = Object.fromEntries(report.programs.map((p: any) => [p.name, p]));
      expect(byName.touch.sandbox).toMatchObject({
        filesystem: "workspace-write",
        network: "allow",
      });
      expect(byName.free.sandbox).toBeNull();
      const probe = report.probes.find((p: any) => p.program === "touch");
      expect(probe.outcome).toBe("failed");
      expect(probe.firstLine).toMatch(/Read-only file system/);
      expect(existsSync(target)).toBe(false);
      expect(run.status).toBe(1);
    } finally {
      removeDir(outside);
    }
  });

  it("shutdown kills a confined background tree, setsid descendants included", async () => {
    const home = tempDir("scm-home-");
    const token = sleepToken();
    const args = serveArgs(dir);
    const server = await startServer({ args, env: baseEnv({ HOME: home }) });
    let closed = false;
    try {
      const bg = await server.exec({
        program: "sh",
        args: ["-c", `setsid sleep ${token} & sleep 300`],
        background: true,
      });
      expect(bg.status).toBe("running");
      expect(await eventually(() => pidsWithToken(token).length === 1, 20_000)).toBe(true);
      await server.close();
      closed = true;
      expect(await eventually(() => pidsWithToken(token).length === 0, 5_000)).toBe(true);
    } finally {
      if (!closed) await server.close();
      killToken(token);
      removeDir(home);
    }
  });

  it("the audit log's directory is hidden from confined programs", async () => {
    const auditDir = mkdtempSync(path.join("/var/tmp", "scm-audit-"));
    const auditLog = path.join(auditDir, "audit.jsonl");
    const args = [...serveArgs(dir), "--audit-log", auditLog];
    const server = await startServer({ args });
    try {
      await server.exec({ program: "free", args: ["-c", "true"] }); // something to record
      expect(existsSync(auditLog)).toBe(true);
      const unconfined = await server.exec({
        program: "free",
        args: ["-c", `ls -A '${auditDir}'`],
      });
      expect(unconfined.stdout.text).toContain("audit.jsonl");
      const confined = await server.exec({
        program: "sh",
        args: ["-c", `ls -A '${auditDir}' | wc -l; echo forged >> '${auditLog}'`],
      });
      expect(confined.stdout.text).toBe("0\n");
      expect(confined.exitCode).not.toBe(0);
      expect(readFileSync(auditLog, "utf8")).not.toContain("forged");
    } finally {
      await server.close();
      removeDir(auditDir);
    }
  });

  it("crash reaping: a SIGKILLed server's confined background tree is gone, its file reaped", async () => {
    const stateHome = path.join(dir, "state");
    const env = baseEnv({ XDG_STATE_HOME: stateHome });
    const args = serveArgs(dir);
    const token = sleepToken();
    const registry = registryIn(stateHome);
    const first = startRawServer(args, env);
    try {
      await first.initialize();
      first.callTool(1, "system_exec", {
        program: "sh",
        args: ["-c", `setsid sleep ${token} & sleep 300`],
        background: true,
      });
      expect((await first.response(1)).result.structuredContent.status).toBe("running");
      expect(await eventually(() => pidsWithToken(token).length === 1, 20_000)).toBe(true);
      expect(readdirSync(registry)).toHaveLength(1);
      first.child.kill("SIGKILL");
      await first.exited;
      // bwrap dies with its parent and takes the whole PID namespace with it.
      expect(await eventually(() => pidsWithToken(token).length === 0, 10_000)).toBe(true);
      const second = await startServer({ args, env });
      try {
        expect(await eventually(() => readdirSync(registry).length === 0, 10_000)).toBe(true);
        expect(await eventually(() => second.stderr().includes("recovered 1 registry"))).toBe(true);
      } finally {
        await second.close();
      }
    } finally {
      if (first.child.exitCode === null) first.child.kill("SIGKILL");
      killToken(token);
    }
  });
});
