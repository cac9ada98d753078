// The PID namespace of a bubblewrap sandbox (SPEC §20): what `--info-fd` tells about it, and
// whether any process is left in it. A namespace is identified by its inode (`pid:[N]`), which no
// other live namespace shares, so a reused pid can never be mistaken for a member.

import { readdirSync, readlinkSync } from "node:fs";
import type { Readable } from "node:stream";
import { parseProcStat, readProcStat } from "../process/proc-table.js";

/** What bwrap writes to its info fd once the sandbox exists. */
export interface SandboxInfo {
  /** The host pid of the sandbox's first process (its PID 1). */
  childPid: number;
  /** The inode of the sandbox's PID namespace. */
  pidNamespace: number;
}

/** Largest info document read (bwrap writes a few lines). */
const MAX_INFO_BYTES = 4_096;

/** Parses bwrap's info JSON; undefined when it is not (yet) a complete document. */
export function parseBwrapInfo(text: string): SandboxInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = value as Record<string, unknown> | null;
  const childPid = record?.["child-pid"];
  const pidNamespace = record?.["pid-namespace"];
  if (!Number.isInteger(childPid) || (childPid as number) <= 1) return undefined;
  if (!Number.isInteger(pidNamespace)) return undefined;
  return { childPid: childPid as number, pidNamespace: pidNamespace as number };
}

/**
 * Reads the info stream until it holds a complete document or ends; then closes it. Resolves
 * undefined when bwrap never wrote one (it failed before creating the sandbox).
 */
export function readBwrapInfo(stream: Readable): Promise<SandboxInfo | undefined> {
  return new Promise((resolve) => {
    let text = "";
    const finish = (info: SandboxInfo | undefined) => {
      stream.off("data", onData);
      stream.destroy();
      resolve(info);
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const info = parseBwrapInfo(text);
      if (info || text.length > MAX_INFO_BYTES) finish(info);
    };
    stream.on("data", onData);
    stream.once("end", () => finish(parseBwrapInfo(text)));
    stream.once("close", () => finish(parseBwrapInfo(text)));
    stream.once("error", () => finish(undefined));
  });
}

/** The `pid:[N]` link of a namespace inode. */
function namespaceLink(inode: number): string {
  return `pid:[${inode}]`;
}

/** Whether `pid` is a live (non-zombie) process inside the namespace. */
export function isLiveMember(pid: number, inode: number): boolean {
  try {
    if (readlinkSync(`/proc/${pid}/ns/pid`) !== namespaceLink(inode)) return false;
    return parseProcStat(readProcStat(pid))?.live ?? false;
  } catch {
    return false; // gone while we looked
  }
}

/** Host pids of every live process whose PID namespace is `inode` (a scan of /proc). */
export function liveNamespaceMembers(inode: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync("/proc")) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const pid = Number(name);
    if (isLiveMember(pid, inode)) members.push(pid);
  }
  return members;
}
