// `audit tail` (SPEC §22): the last N records of an audit log, one readable line each.

type Json = Record<string, any>;

const SHORT_HASH_CHARS = 12;

function short(hash: unknown): string {
  return typeof hash === "string" ? hash.slice(0, SHORT_HASH_CHARS) : "-";
}

function argsText(record: Json): string {
  if (Array.isArray(record.args)) return JSON.stringify(record.args);
  return `argsDigest ${short(record.argsDigest)}`;
}

function streamText(name: string, stream: Json | undefined): string {
  if (!stream) return `${name} -`;
  return `${name} ${stream.bytes} B sha256 ${short(stream.sha256)}`;
}

/** What one record says, after its time, event and chain position. */
function summary(record: Json): string {
  switch (record.event) {
    case "chain-start": {
      const manifest = record.manifest ? record.manifest.path : "no manifest";
      return `server ${record.serverVersion} pid ${record.pid}, ${record.mode}, ${manifest}, roots ${(record.roots ?? []).join(", ")}`;
    }
    case "exec": {
      const end =
        record.exitCode !== null ? `exit ${record.exitCode}` : `signal ${record.signal ?? "?"}`;
      const flags = [record.timedOut && "timed out", record.cancelled && "cancelled"].filter(
        Boolean,
      );
      const client = record.client ? `${record.client.name} ${record.client.version}` : "no client";
      return (
        `${record.program} ${argsText(record)} in ${record.cwd} → ${end}` +
        `${flags.length ? ` (${flags.join(", ")})` : ""}, ${record.durationMs} ms, ${record.decision}, ` +
        `${streamText("stdout", record.stdout)}, ${streamText("stderr", record.stderr)}` +
        `${record.artifact ? `, artifact ${record.artifact}` : ""}, ${client}`
      );
    }
    case "exec-start":
      return `${record.program} ${argsText(record)} in ${record.cwd}, ${record.decision}`;
    case "denied":
      return `${record.program} ${argsText(record)} in ${record.cwd}: rule ${record.rule} (${JSON.stringify(record.reason ?? "")})`;
    case "approval":
      return `${record.id}: ${record.outcome} via ${record.via} (${record.detail ?? ""})`;
    default:
      return "";
  }
}

/** One readable line for a raw log line (its 1-based number shown for unreadable ones). */
export function formatAuditLine(raw: string, line: number): string {
  let record: Json;
  try {
    record = JSON.parse(raw) as Json;
  } catch {
    return `line ${line}: (not a JSON record)`;
  }
  const position = `${String(record.chain ?? "?").slice(0, 8)}#${record.seq}`;
  const said = summary(record);
  return `${record.ts} ${record.event} ${position}${said ? ` ${said}` : ""}`;
}

/** The last `count` non-empty lines of a log's text, with their 1-based line numbers. */
export function lastLines(text: string, count: number): { raw: string; line: number }[] {
  const lines = text.split("\n");
  const numbered = lines
    .map((raw, index) => ({ raw, line: index + 1 }))
    .filter((l) => l.raw !== "");
  return numbered.slice(Math.max(0, numbered.length - count));
}
