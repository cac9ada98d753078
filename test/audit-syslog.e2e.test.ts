// The system-log copy of a sealed audit log (SPEC §22.1) against a real rsyslogd listening in the
// test's directory: UDP and TCP (octet-counted) on loopback ports, a unix stream socket (imptcp),
// and a unix datagram socket (imuxsock), which Node cannot write: the failures are counted in
// chain-end and logged once, the calls run. The manifest's `audit.syslog` values are checked too.

import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateManifest } from "../src/programs/load-catalog.js";
import { attackDir, identities, type AttackDir } from "./helpers/identity.js";
import { defaultManifest, eventually, isAlive } from "./helpers/server.js";
import { auditServer, closeAndWait, seal } from "./audit-helpers.js";

type Json = Record<string, any>;

const RSYSLOGD = "/usr/sbin/rsyslogd";
const ARG_MARKER = "argument-never-sent-to-syslog";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A loopback port nobody listens on right now (TCP and UDP alike in practice). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts TCP connections on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe.skipIf(!existsSync(RSYSLOGD))("the system-log copy, collected by a real rsyslogd", () => {
  const [identity] = identities();
  let attack: AttackDir;
  let daemon: ChildProcess;
  let collected: string;
  let ports: { tcp: number; udp: number };
  let streamSocket: string;
  let datagramSocket: string;

  beforeAll(async () => {
    attack = attackDir(identity!, "scm-audit-syslog-");
    const dir = attack.mkdir("rsyslog");
    mkdirSync(path.join(dir, "work"));
    collected = path.join(dir, "collected.log");
    ports = { tcp: await freePort(), udp: await freePort() };
    streamSocket = path.join(dir, "stream.sock");
    datagramSocket = path.join(dir, "dgram.sock");
    const conf = path.join(dir, "rsyslog.conf");
    writeFileSync(
      conf,
      [
        `global(workDirectory="${dir}/work")`,
        'module(load="imuxsock" SysSock.Use="off")',
        'module(load="imtcp")',
        'module(load="imudp")',
        'module(load="imptcp")',
        `input(type="imtcp" address="127.0.0.1" port="${ports.tcp}")`,
        `input(type="imudp" address="127.0.0.1" port="${ports.udp}")`,
        `input(type="imptcp" path="${streamSocket}" unlink="on")`,
        `input(type="imuxsock" socket="${datagramSocket}")`,
        'template(name="collected" type="string" string="%app-name% %syslogfacility-text% %msgid% %msg%\\n")',
        `if $app-name == "system-command-mcp" then action(type="omfile" file="${collected}" template="collected")`,
        "",
      ].join("\n"),
    );
    daemon = spawn(RSYSLOGD, ["-n", "-f", conf, "-i", path.join(dir, "pid")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const ready = await eventually(
      () => existsSync(streamSocket) && existsSync(datagramSocket),
      15_000,
    );
    expect(ready && (await accepts(ports.tcp)), "rsyslogd did not start listening").toBe(true);
  }, 30_000);

  afterAll(async () => {
    if (daemon?.pid !== undefined && daemon.exitCode === null) {
      daemon.kill("SIGTERM");
      await eventually(() => !isAlive(daemon.pid!), 5_000);
    }
    attack?.remove();
  });

  /** Runs two calls through a server whose sealed log copies to `syslog`; returns the log's lines. */
  async function run(name: string, syslog: string): Promise<{ lines: string[]; stderr: string }> {
    const log = path.join(attack.mkdir(`logs-${name}`), "audit.jsonl");
    seal(attack, log);
    const manifest = { ...(defaultManifest() as Json), audit: { path: log, args: "full", syslog } };
    const server = await auditServer(attack, identity!, log, manifest);
    let stderr = "";
    try {
      const report = (await server.call("system_environment")).structuredContent as Json;
      expect(report.audit).toMatchObject({ sealed: true, syslog });
      expect((await server.exec({ program: "true", args: [ARG_MARKER] })).exitCode).toBe(0);
      const failed = await server.exec({ program: "node", args: ["-e", "process.exit(3)"] });
      expect(failed.exitCode).toBe(3);
    } finally {
      await closeAndWait(server);
      stderr = server.stderr();
    }
    return { lines: readFileSync(log, "utf8").trimEnd().split("\n"), stderr };
  }

  /** The collected messages of one chain. */
  const messagesOf = (chain: string) =>
    (existsSync(collected) ? readFileSync(collected, "utf8") : "")
      .split("\n")
      .filter((line) => line.includes(chain))
      .map((line) => {
        const [app, facility, msgid, ...msg] = line.split(" ");
        return { app, facility, msgid, msg: JSON.parse(msg.join(" ")) as Json };
      });

  it.each([
    ["udp", () => `udp://127.0.0.1:${ports.udp}`],
    ["tcp", () => `tcp://127.0.0.1:${ports.tcp}`],
    ["unix stream", () => `unix:${streamSocket}`],
  ])(
    "over %s every local record arrives: chain, seq, seal index, line hash; never the arguments",
    async (name, target) => {
      const { lines } = await run(name.replace(" ", "-"), target());
      const local = lines.map((line) => ({ line, record: JSON.parse(line) as Json }));
      const chain = local[0]!.record.chain as string;
      expect(await eventually(() => messagesOf(chain).length >= local.length, 10_000)).toBe(true);
      const messages = messagesOf(chain);
      expect(messages).toHaveLength(local.length);
      for (const { line, record } of local) {
        const found = messages.find((m) => m.msg.seq === record.seq);
        expect(found, `seq ${record.seq}`).toBeDefined();
        expect(found).toMatchObject({
          app: "system-command-mcp",
          facility: "auth",
          msgid: record.event,
        });
        expect(found!.msg).toEqual({
          chain,
          seq: record.seq,
          seal: record.seal?.index ?? null,
          sha256: sha256(line),
          event: record.event,
          program: record.program ?? null,
          exitCode: typeof record.exitCode === "number" ? record.exitCode : null,
        });
      }
      expect(readFileSync(collected, "utf8")).not.toContain(ARG_MARKER);
      expect(local.at(-1)!.record).toMatchObject({ event: "chain-end", syslogFailures: 0 });
    },
    60_000,
  );

  it("a unix datagram socket (not writable from Node): failures counted in chain-end, one stderr line, calls run", async () => {
    const { lines, stderr } = await run("dgram", `unix:${datagramSocket}`);
    const end = JSON.parse(lines.at(-1)!) as Json;
    expect(end.event).toBe("chain-end");
    expect(end.syslogFailures).toBe(lines.length - 1); // every record before chain-end
    const warned = stderr
      .split("\n")
      .filter((l) => l.includes("sending a record to the system log"));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /is a datagram socket, which Node cannot write; use "udp:\/\/127\.0\.0\.1:514"/,
    );
  }, 60_000);
});

describe("audit.syslog in the manifest", () => {
  const withSyslog = (syslog: unknown) => ({
    version: 2,
    programs: { t: { candidates: ["true"] } },
    audit: { path: "/var/log/a.jsonl", syslog },
  });
  it.each([true, "unix:/dev/log", "udp://127.0.0.1:514", "tcp://logs.example.org:6514"])(
    "accepts %j",
    (value) => {
      expect(() => validateManifest(withSyslog(value))).not.toThrow();
    },
  );
  it.each([false, "http://x:1", "udp://127.0.0.1", "unix:relative", ""])(
    "rejects %j at /audit/syslog",
    (value) => {
      expect(() => validateManifest(withSyslog(value))).toThrow(/\/audit\/syslog/);
    },
  );
});
