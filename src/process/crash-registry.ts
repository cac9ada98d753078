// Crash safety for process groups (SPEC §19): each server keeps one file naming the process
// groups it started; a later server kills the leftovers of servers that died without cleaning up.

import { childProcess } from "../child-process.js";
import { readdirSync, rmSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../file-modes.js";
import { readRegularFileSync } from "../regular-file.js";
import { listGroupMembers, pidExists, processStartTicks, PS_TIMEOUT_MS } from "./proc-table.js";

const STATE_DIR_MODE = PRIVATE_DIR_MODE;
const STATE_FILE_MODE = PRIVATE_FILE_MODE;
/**
 * Changes are written this long after they happen, coalesced, and a group only once it is this
 * old: an execution shorter than this never touches the disk. A server killed within this window after a spawn leaves that group
 * unrecorded — the price of keeping the write off the per-call path.
 */
const FLUSH_DELAY_MS = 10;

interface GroupRecord {
  pgid: number;
  leaderStartTime: string;
}

interface RegistryContent {
  serverPid: number;
  serverStartTime: string;
  groups: GroupRecord[];
}

/** The per-user state directory holding the registry files (§19). */
export function defaultExecutionsDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  homeDir: string = os.homedir(),
): string {
  if (platform === "darwin") {
    return path.join(homeDir, "Library/Application Support/system-command-mcp/executions");
  }
  const base = env.XDG_STATE_HOME || path.join(homeDir, ".local/state");
  return path.join(base, "system-command-mcp/executions");
}

/** A process's start time as a comparable string (Linux: clock ticks since boot), if alive. */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 1) return undefined;
  if (process.platform === "linux") {
    const ticks = processStartTicks(pid);
    return ticks === undefined ? undefined : String(ticks);
  }
  try {
    const out = childProcess()
      .execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
        encoding: "utf8",
        timeout: PS_TIMEOUT_MS,
        stdio: ["ignore", "pipe", "ignore"],
      })
      .trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

/** Whether `a` started at or after `b` (both from processStartTime on this platform). */
function startedAtOrAfter(a: string, b: string): boolean {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) >= BigInt(b);
  return Date.parse(a) >= Date.parse(b);
}

/** This server's registry file: rewritten atomically (and asynchronously) as groups come and go. */
export class GroupRegistry {
  private readonly groups = new Map<number, GroupRecord>();
  /** When each group was added (ms, monotonic): only groups older than the delay are written. */
  private readonly addedAt = new Map<number, number>();
  private readonly file: string;
  private readonly serverStartTime: string;
  private broken = false;
  private closed = false;
  private dirReady = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private written = JSON.stringify([]);

  /** `clock`: monotonic milliseconds (tests pass their own to control the groups' ages). */
  constructor(
    private readonly dir: string,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.serverStartTime = processStartTime(process.pid) ?? "unknown";
    this.file = path.join(dir, `${process.pid}-${this.serverStartTime.replace(/\W/g, "_")}.json`);
  }

  /** Records a new process group (its leader's pid) with the leader's start time. */
  add(pgid: number): void {
    const leaderStartTime = processStartTime(pgid);
    if (leaderStartTime === undefined) return; // already gone
    this.groups.set(pgid, { pgid, leaderStartTime });
    this.addedAt.set(pgid, this.clock());
    this.schedule(FLUSH_DELAY_MS);
  }

  /** Forgets a group whose execution ended (its tree was cleaned up). */
  remove(pgid: number): void {
    this.addedAt.delete(pgid);
    if (this.groups.delete(pgid)) this.schedule(FLUSH_DELAY_MS);
  }

  /** Writes the current groups now (a background execution is recorded before its handle returns). */
  async persist(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush(true);
  }

  /** Waits for pending writes, then removes this server's file (clean shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.writing?.catch(() => {});
    if (this.groups.size > 0) {
      // Groups whose end was not seen (an unconfirmed kill): leave them for the next server.
      this.closed = false;
      await this.flush(true).catch(() => {});
      this.closed = true;
      return;
    }
    rmSync(this.file, { force: true });
    rmSync(`${this.file}.tmp`, { force: true });
  }

  private schedule(delayMs: number): void {
    if (this.broken || this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush(false);
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Writes the groups that are at least FLUSH_DELAY_MS old (all of them when `all`): under a
   * steady stream of short executions, one still running when the timer fires is not written
   * unless it outlives the delay, so short executions never touch the disk (SPEC §16, §19).
   */
  private async flush(all: boolean): Promise<void> {
    if (this.writing) {
      await this.writing.catch(() => {});
      return this.flush(all);
    }
    const now = this.clock();
    const due: GroupRecord[] = [];
    let nextDueMs: number | undefined;
    for (const record of this.groups.values()) {
      // once written in full (persist), a group stays written whatever its age
      if (all) this.addedAt.set(record.pgid, -Infinity);
      const age = now - (this.addedAt.get(record.pgid) ?? -Infinity);
      if (age >= FLUSH_DELAY_MS) due.push(record);
      else nextDueMs = Math.min(nextDueMs ?? FLUSH_DELAY_MS, FLUSH_DELAY_MS - age);
    }
    if (nextDueMs !== undefined) this.schedule(Math.max(1, Math.ceil(nextDueMs)));
    const groups = JSON.stringify(due);
    if (groups === this.written || this.closed) return;
    const content = `{"serverPid":${process.pid},"serverStartTime":${JSON.stringify(
      this.serverStartTime,
    )},"groups":${groups}}`;
    this.writing = this.writeAtomically(content).then(() => {
      this.written = groups;
    });
    try {
      await this.writing;
    } catch {
      this.broken = true; // crash safety is best effort; executions must not fail for it
    } finally {
      this.writing = undefined;
    }
  }

  private async writeAtomically(content: string): Promise<void> {
    if (!this.dirReady) {
      await mkdir(this.dir, { recursive: true, mode: STATE_DIR_MODE });
      this.dirReady = true;
    }
    const temp = `${this.file}.tmp`;
    try {
      await writeFile(temp, content, { mode: STATE_FILE_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // the directory went away since it was created: make it again, once
      await mkdir(this.dir, { recursive: true, mode: STATE_DIR_MODE });
      await writeFile(temp, content, { mode: STATE_FILE_MODE });
    }
    await rename(temp, this.file);
  }
}

/** What a reaping pass did, for the log line. */
export interface ReapReport {
  files: number;
  killed: number;
  skippedGroups: number;
  /** Names ending in .json that are not regular files (directories, FIFOs, symlinks): left alone. */
  skippedEntries: string[];
}

/** Longest registry file read (a few hundred bytes per group are written). */
const MAX_REGISTRY_BYTES = 4 * 1024 * 1024;

/** Kills the leftover groups of dead servers and deletes their files; live owners are left. */
export function reapDeadServers(dir: string): ReapReport {
  const report: ReapReport = { files: 0, killed: 0, skippedGroups: 0, skippedEntries: [] };
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort();
  } catch {
    return report;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    // Read without following a symlink or waiting on a FIFO (#14).
    const bytes = readRegularFileSync(file, MAX_REGISTRY_BYTES);
    const text = bytes == null ? bytes : bytes.toString("utf8");
    if (text === undefined) continue; // removed meanwhile by its owner
    if (text === null) {
      report.skippedEntries.push(name);
      continue;
    }
    const content = parseRegistry(text);
    if (content && ownerAlive(content)) continue;
    if (content) {
      for (const group of content.groups) {
        const killed = reapGroup(group);
        if (killed === undefined) report.skippedGroups++;
        else report.killed += killed;
      }
    }
    rmSync(file, { force: true });
    report.files++;
  }
  return report;
}

function parseRegistry(text: string): RegistryContent | undefined {
  try {
    const value = JSON.parse(text) as RegistryContent;
    if (!Number.isInteger(value.serverPid) || !Array.isArray(value.groups)) return undefined;
    value.groups = value.groups.filter(
      (g) => Number.isInteger(g.pgid) && g.pgid > 1 && typeof g.leaderStartTime === "string",
    );
    return value;
  } catch {
    return undefined;
  }
}

function ownerAlive(content: RegistryContent): boolean {
  if (content.serverPid === process.pid) return true;
  const start = processStartTime(content.serverPid);
  // An owner that could not read its own start time is judged by its pid alone (never reap a
  // server that may be alive).
  if (content.serverStartTime === "unknown")
    return start !== undefined || pidExists(content.serverPid);
  return start !== undefined && start === content.serverStartTime;
}

/**
 * SIGKILLs the members of a recorded group that started at or after its leader. Returns the
 * number killed, or undefined when the group id now belongs to someone else (a reused pid).
 */
function reapGroup(group: GroupRecord): number | undefined {
  const leaderNow = processStartTime(group.pgid);
  if (leaderNow !== undefined && leaderNow !== group.leaderStartTime) return undefined;
  let killed = 0;
  for (const member of listGroupMembers(group.pgid)) {
    const started = member.startTicks !== undefined ? String(member.startTicks) : member.startedAt;
    if (!member.live || started === undefined) continue;
    if (!startedAtOrAfter(started, group.leaderStartTime)) continue;
    try {
      process.kill(member.pid, "SIGKILL");
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}
