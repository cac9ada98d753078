// Shared helpers for bench/run.mjs: a raw newline-delimited JSON-RPC client over pipes (the same
// client for the server and for every reference, so client cost cancels out), /proc sampling and
// statistics. Linux only (/proc).

import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

export const now = () => performance.now();

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const p50 = (values) => percentile(values, 50);

/**
 * Spawns `command args…` with piped stdio and speaks newline-delimited JSON-RPC to it.
 * `request` resolves with the whole response message (result or error).
 */
export function startRpc(command, args, { env, cwd } = {}) {
  const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  const waiters = new Map();
  let nextId = 1;
  let pending = [];
  let pendingBytes = 0;
  let stderr = "";
  let exited = false;
  const exit = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      exited = true;
      for (const waiter of waiters.values())
        waiter.reject(new Error(`server exited (${code ?? signal})`));
      waiters.clear();
      resolve({ code, signal });
    }),
  );
  const deliver = (line) => {
    if (line.length === 0) return;
    const message = JSON.parse(line);
    if (message.id === undefined || message.id === null) return; // notification
    const waiter = waiters.get(message.id);
    if (waiter) {
      waiters.delete(message.id);
      waiter.resolve(message);
    }
  };
  child.stdout.on("data", (chunk) => {
    let start = 0;
    let newline;
    while ((newline = chunk.indexOf(10, start)) !== -1) {
      const piece = chunk.subarray(start, newline);
      let line;
      if (pendingBytes > 0) {
        pending.push(piece);
        line = Buffer.concat(pending).toString("utf8");
        pending = [];
        pendingBytes = 0;
      } else {
        line = piece.toString("utf8");
      }
      deliver(line);
      start = newline + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
    }
  });
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString("utf8");
  });
  child.stdin.on("error", () => {});
  const send = (message) => child.stdin.write(JSON.stringify(message) + "\n");
  const request = (method, params, timeoutMs = 180_000) => {
    if (exited) return Promise.reject(new Error("server has exited"));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        reject(new Error(`no response to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.set(id, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      send({ jsonrpc: "2.0", id, method, params });
    });
  };
  const notify = (method, params) =>
    send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
  const initialize = async () => {
    const response = await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "system-command-mcp-bench", version: "0.0.0" },
    });
    if (response.error) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    notify("notifications/initialized");
    return response.result;
  };
  /** Ends stdin and waits for the exit; SIGKILLs this child (only) if it lingers. */
  const close = async (graceMs = 3000) => {
    if (!exited) child.stdin.end();
    const timer = setTimeout(() => {
      if (!exited) child.kill("SIGKILL");
    }, graceMs);
    const result = await exit;
    clearTimeout(timer);
    return result;
  };
  return { child, pid: child.pid, request, notify, initialize, close, exit, stderr: () => stderr };
}

/** `tools/call` that throws on a JSON-RPC error or a tool error, returning structuredContent. */
export async function callTool(rpc, name, args, timeoutMs) {
  const response = await rpc.request("tools/call", { name, arguments: args }, timeoutMs);
  if (response.error) throw new Error(`${name}: JSON-RPC error ${JSON.stringify(response.error)}`);
  const result = response.result;
  if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text ?? "tool error"}`);
  return result.structuredContent;
}

/** Spawns a program and resolves on 'close' after draining both pipes (the raw reference). */
export function rawRun(file, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    child.stdout.on("data", (chunk) => (bytes += chunk.length));
    child.stderr.on("data", () => {});
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, bytes }));
  });
}

/** Fields of /proc/<pid>/status in KiB (VmRSS, VmHWM, …). */
export function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const out = {};
  for (const line of text.split("\n")) {
    const match = /^(Vm\w+):\s+(\d+) kB/.exec(line);
    if (match) out[match[1]] = Number(match[2]);
  }
  return out;
}

export const rssKiB = (pid) => procStatus(pid).VmRSS;

export const fdCount = (pid) => readdirSync(`/proc/${pid}/fd`).length;

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat. Unlike wall
 * time it hardly depends on what else the machine runs, so it shows where a ratio comes from.
 */
export function cpuMs(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, "latin1");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ; // utime, stime
}

/** CPU time (ms) this process has used so far. */
export function ownCpuMs() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Resets VmHWM to the current RSS (Linux ≥ 4.0, same user); false when not permitted. */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Polls RSS every `everyMs` until stopped; returns the maximum seen (KiB). */
export function sampleRss(pid, everyMs = 5) {
  let max = 0;
  const tick = () => {
    try {
      max = Math.max(max, rssKiB(pid));
    } catch {
      // the process is gone
    }
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return max;
    },
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first of `files` that exists (a program's usual places), or undefined. */
export function firstExisting(...files) {
  return files.find((file) => existsSync(file));
}

/** A host-like environment for a server: the usual variables, state and cache under `tmp`. */
export function hostEnv(tmp) {
  const env = {};
  for (const name of ["HOME", "PATH", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG"]) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  env.XDG_STATE_HOME = path.join(tmp, "state");
  env.XDG_CACHE_HOME = path.join(tmp, "cache");
  return env;
}

/**
 * A fresh temporary directory `<prefix>…` (below BENCH_TMP when set) with a Root and a v2
 * manifest of `programs`; `serve()` starts `node <entry> serve` on it with a host-like
 * environment and an artifact directory inside it.
 */
export function benchWorkspace(prefix, programs) {
  const tmp = realpathSync(mkdtempSync(path.join(process.env.BENCH_TMP ?? os.tmpdir(), prefix)));
  const root = path.join(tmp, "root");
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const manifest = path.join(tmp, "manifest.json");
  writeFileSync(manifest, JSON.stringify({ version: 2, programs }));
  const artifactDir = path.join(tmp, "a");
  const serve = (entry) =>
    startRpc(
      process.execPath,
      [entry, "serve", "--root", root, "--manifest", manifest, "--artifact-dir", artifactDir],
      { env: hostEnv(tmp), cwd: root },
    );
  return { tmp, root, manifest, artifactDir, serve };
}
