// The system-log copy of an audit log (SPEC §22.1): every record's summary — chain, seq, seal
// index, the sha256 of the local line, event, program, exit code; never the arguments — as an
// RFC 5424 message (app-name system-command-mcp, facility auth, msgid the event, no structured
// data) to the machine's log daemon. A send that fails is logged once on stderr and counted; it
// never blocks or fails a call (the local log stays authoritative and fail-closed).
//
// Transports: UDP (one datagram per message); TCP with octet-counting framing (RFC 6587); a unix
// STREAM socket ("unix:/path", one message per line). Node has no unix datagram sockets, and
// /dev/log is a datagram socket under rsyslog and journald: `syslog: true` tries /dev/log as a
// stream socket (syslog-ng's unix-stream source) and otherwise counts failures — docs say to use
// "udp://127.0.0.1:514" with the daemon's UDP input on loopback there.

import dgram from "node:dgram";
import net from "node:net";
import os from "node:os";
import type { AuditCopy, AuditCopyRecord } from "./audit-trail.js";

/** RFC 5424 PRI: facility auth (4) × 8 + severity informational (6). */
const PRI_AUTH_INFO = 4 * 8 + 6;
export const SYSLOG_APP_NAME = "system-command-mcp";
/** The system log socket of `syslog: true`. */
export const DEV_LOG = "/dev/log";
/** Messages queued while a stream connects; more are counted as failures, never buffered. */
const MAX_QUEUED_MESSAGES = 1024;
/** How long close() waits for queued messages to leave. */
const FLUSH_WAIT_MS = 1000;
const TARGET = /^(?:unix:(\/.+)|(udp|tcp):\/\/([^/:]+):([0-9]{1,5}))$/;

export type SyslogTarget =
  | { kind: "unix"; path: string; text: string }
  | { kind: "udp" | "tcp"; host: string; port: number; text: string };

/** The manifest's `audit.syslog` as a target; undefined when it names none. */
export function syslogTarget(setting: true | string): SyslogTarget | undefined {
  const text = setting === true ? `unix:${DEV_LOG}` : setting;
  const match = TARGET.exec(text);
  if (!match) return undefined;
  if (match[1] !== undefined) return { kind: "unix", path: match[1], text };
  const port = Number(match[4]);
  if (port < 1 || port > 65535) return undefined;
  return { kind: match[2] as "udp" | "tcp", host: match[3]!, port, text };
}

/** One RFC 5424 message for a record. */
export function syslogMessage(record: AuditCopyRecord, now = new Date()): string {
  const msg = JSON.stringify({
    chain: record.chain,
    seq: record.seq,
    seal: record.seal,
    sha256: record.sha256,
    event: record.event,
    program: record.program,
    exitCode: record.exitCode,
  });
  const host = os.hostname().replace(/[^!-~]/g, "") || "-";
  return `<${PRI_AUTH_INFO}>1 ${now.toISOString()} ${host} ${SYSLOG_APP_NAME} ${process.pid} ${record.event} - ${msg}`;
}

/** Sends the copies to one target. */
export class SyslogCopy implements AuditCopy {
  readonly target: string;
  private failed = 0;
  private warned = false;
  private udp: dgram.Socket | undefined;
  private stream: net.Socket | undefined;
  private connected = false;
  private queue: string[] = [];
  private inFlight = 0;

  constructor(
    private readonly to: SyslogTarget,
    private readonly log: (line: string) => void,
  ) {
    this.target = to.text;
  }

  failures(): number {
    return this.failed;
  }

  send(record: AuditCopyRecord): void {
    const message = syslogMessage(record);
    try {
      if (this.to.kind === "udp") this.sendUdp(message, this.to.host, this.to.port);
      else this.sendStream(message);
    } catch (error) {
      this.fail(1, error);
    }
  }

  async close(): Promise<void> {
    const deadline = Date.now() + FLUSH_WAIT_MS;
    while ((this.inFlight > 0 || (this.queue.length > 0 && this.stream)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    this.udp?.close();
    this.udp = undefined;
    if (this.stream) {
      const stream = this.stream;
      this.stream = undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        stream.end(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      stream.destroy();
    }
  }

  private sendUdp(message: string, host: string, port: number): void {
    if (!this.udp) {
      this.udp = dgram.createSocket(net.isIPv6(host) ? "udp6" : "udp4");
      this.udp.on("error", (error) => this.fail(0, error));
      this.udp.unref();
    }
    this.inFlight += 1;
    this.udp.send(message, port, host, (error) => {
      this.inFlight -= 1;
      if (error) this.fail(1, error);
    });
  }

  /** TCP: octet counting ("LEN SP MSG"); a unix stream socket: one message per line. */
  private frame(message: string): string {
    return this.to.kind === "tcp" ? `${Buffer.byteLength(message)} ${message}` : `${message}\n`;
  }

  private sendStream(message: string): void {
    if (!this.stream) this.connect();
    if (!this.connected) {
      if (this.queue.length >= MAX_QUEUED_MESSAGES) this.fail(1, new Error("queue full"));
      else this.queue.push(message);
      return;
    }
    this.inFlight += 1;
    this.stream!.write(this.frame(message), (error) => {
      this.inFlight -= 1;
      if (error) this.fail(1, error);
    });
  }

  private connect(): void {
    const to = this.to;
    const stream =
      to.kind === "unix"
        ? net.connect({ path: to.path })
        : net.connect({ host: (to as { host: string }).host, port: (to as { port: number }).port });
    this.stream = stream;
    this.connected = false;
    stream.unref();
    stream.on("connect", () => {
      this.connected = true;
      const queued = this.queue;
      this.queue = [];
      for (const message of queued) this.sendStream(message);
    });
    stream.on("error", (error) => {
      // Everything still queued is lost; the next send connects again.
      this.fail(this.queue.length, error);
      this.queue = [];
    });
    stream.on("close", () => {
      if (this.stream === stream) this.stream = undefined;
      this.connected = false;
    });
  }

  private fail(count: number, error: unknown): void {
    this.failed += count;
    if (this.warned) return;
    this.warned = true;
    const code = (error as { code?: unknown })?.code;
    const why =
      code === "EPROTOTYPE"
        ? `${this.target} is a datagram socket, which Node cannot write; use "udp://127.0.0.1:514" with the log daemon's UDP input on loopback`
        : `${typeof code === "string" ? code : error instanceof Error ? error.message : "failed"}`;
    this.log(
      `audit: sending a record to the system log ${this.target} failed (${why}); the local log is unaffected, later failures are only counted (chain-end syslogFailures)`,
    );
  }
}
