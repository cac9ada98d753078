// The cross-process exclusive lock that serialises sealing (SPEC §22.1). The SPEC names flock(2);
// Node has no flock, and a native addon or a helper process per record would cost more than the
// record itself, so the lock is a file `PATH.seal.lock` created atomically by hard-linking a fully
// written temporary file (link fails with EEXIST while another writer holds it), holding the owner's
// pid, its start time and a nonce. A lock whose owner is gone (a SIGKILLed server) is broken: renamed
// aside, and linked back if what was moved is not what was judged dead. Synchronous on purpose: a
// record is written between two synchronous fsyncs anyway, and the holder keeps it for that long.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { errnoCode } from "../errors.js";
import { pidExists } from "../process/proc-table.js";
import { PRIVATE_FILE_MODE } from "./constants.js";

/** The lock file beside the seal state. */
export const SEAL_LOCK_SUFFIX = ".lock";
/** How long a writer waits for the lock before the record fails (AUDIT_UNAVAILABLE). */
export const SEAL_LOCK_TIMEOUT_MS = 10_000;
/** Polling while another writer holds it: starts small, doubles up to the max. */
const POLL_START_MS = 1;
const POLL_MAX_MS = 16;
const NONCE_BYTES = 8;
const MAX_LOCK_BYTES = 256;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** This process's start time (Linux clock ticks since boot), or "" where it cannot be read. */
function startToken(pid: number): string | null {
  if (process.platform !== "linux") return pidExists(pid) ? "" : null;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return null;
  return fields[19] ?? "";
}

const ownStart = startToken(process.pid) ?? "";

/** Whether the owner written in a lock still runs (a reused pid with another start is dead). */
function ownerAlive(content: string): boolean {
  let owner: { pid?: unknown; start?: unknown };
  try {
    owner = JSON.parse(content) as typeof owner;
  } catch {
    return false;
  }
  if (typeof owner.pid !== "number" || typeof owner.start !== "string") return false;
  const start = startToken(owner.pid);
  if (start === null) return false;
  return owner.start === "" || start === "" || start === owner.start;
}

/** The lock's content; null when there is none; undefined when it is not a regular file. */
function readLock(file: string): string | null | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? null : undefined;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    return buffer.toString("utf8", 0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Moves a dead owner's (or a planted non-file) lock aside; a live holder's is linked back. */
function breakLock(file: string, judged: string | undefined): void {
  const aside = `${file}.broken-${process.pid}-${randomBytes(NONCE_BYTES).toString("hex")}`;
  try {
    fs.renameSync(file, aside);
  } catch {
    return;
  }
  const moved = readLock(aside);
  if (judged !== undefined && moved !== judged) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // Someone else holds a new lock already: theirs stays.
    }
  }
  fs.rmSync(aside, { recursive: true, force: true });
}

/** This process's lock content and the file it is linked from, per lock path (made once). */
const sources = new Map<string, { temp: string; content: string }>();

/** The temporary file a lock is linked from: written once per process, removed at exit. */
function sourceFor(file: string): { temp: string; content: string } {
  let source = sources.get(file);
  if (source && fs.existsSync(source.temp)) return source;
  const nonce = randomBytes(NONCE_BYTES).toString("hex");
  const content = JSON.stringify({ pid: process.pid, start: ownStart, nonce });
  const temp = `${file}.tmp-${process.pid}-${nonce}`;
  fs.writeFileSync(temp, content, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  if (sources.size === 0) process.once("exit", releaseSources);
  source = { temp, content };
  sources.set(file, source);
  return source;
}

/** Removes this process's temporary lock sources (a SIGKILLed process leaves its few bytes). */
export function releaseSources(): void {
  for (const { temp } of sources.values()) fs.rmSync(temp, { force: true });
  sources.clear();
}

/** Runs `body` holding the lock `file`; throws (with the errno or a timeout) when it cannot. */
export function withSealLock<T>(file: string, body: () => T): T {
  const { temp, content } = sourceFor(file);
  acquire(temp, file);
  try {
    return body();
  } finally {
    if (readLock(file) === content) fs.rmSync(file, { force: true });
  }
}

function acquire(temp: string, file: string): void {
  const deadline = Date.now() + SEAL_LOCK_TIMEOUT_MS;
  let pollMs = POLL_START_MS;
  for (;;) {
    try {
      fs.linkSync(temp, file);
      return;
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") throw error;
    }
    const found = readLock(file);
    if (found === null) continue; // released between the link and the read
    if (found === undefined || !ownerAlive(found)) {
      breakLock(file, found);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(`another writer held ${file} for ${SEAL_LOCK_TIMEOUT_MS} ms`);
    }
    Atomics.wait(pause, 0, 0, pollMs);
    pollMs = Math.min(pollMs * 2, POLL_MAX_MS);
  }
}
