// `audit tail` (SPEC §22): the last N records of an audit log, one readable line each.

import { displayList, displayText } from "../display-text.js";

type Json = Record<string, any>;

/** A record's field as a human may see it: numbers and booleans as they are, the rest quoted. */
function show(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return displayText(typeof value === "string" ? value : JSON.stringify(value ?? null));
}

/** A word the server writes (time, event, id, outcome): bare when plain, else quoted like show(). */
function token(value: unknown): string {
  const text = typeof value === "string" ? value : String(value ?? "");
  return PLAIN_TOKEN.test(text) ? text : show(value);
}

/** A list field (roots, args), each entry through show(). */
function showList(value: unknown): string {
  return Array.isArray(value) ? displayList(value.map(String)) : show(value);
}

const SHORT_HASH_CHARS = 12;
/** What token() prints unquoted: letters, digits and . : + - _ only. */
const PLAIN_TOKEN = /^[\w.:+-]+$/;

function short(hash: unknown): string {
  return typeof hash === "string" ? token(hash.slice(0, SHORT_HASH_CHARS)) : "-";
}

function argsText(record: Json): string {
  if (Array.isArray(record.args)) return showList(record.args);
  return `argsDigest ${short(record.argsDigest)}`;
}

function streamText(name: string, stream: Json | undefined): string {
  if (!stream) return `${name} -`;
  return `${name} ${token(stream.bytes)} B sha256 ${short(stream.sha256)}`;
}

/** What one record says, after its time, event and chain position. */
function summary(record: Json): string {
  switch (record.event) {
    case "chain-start": {
      const manifest = record.manifest ? show(record.manifest.path) : "no manifest";
      return `server ${token(record.serverVersion)} pid ${token(record.pid)}, ${token(record.mode)}, ${manifest}, roots ${showList(record.roots ?? [])}`;
    }
    case "exec": {
      const end =
        record.error !== undefined
          ? `not started: ${token(record.error)}`
          : record.exitCode !== null
            ? `exit ${token(record.exitCode)}`
            : `signal ${token(record.signal ?? "?")}`;
      const flags = [record.timedOut && "timed out", record.cancelled && "cancelled"].filter(
        Boolean,
      );
      const client = record.client
        ? `${show(record.client.name)} ${token(record.client.version)}`
        : "no client";
      return (
        `${show(record.program)} ${argsText(record)} in ${show(record.cwd)} → ${end}` +
        `${flags.length ? ` (${flags.join(", ")})` : ""}, ${token(record.durationMs)} ms, ${token(record.decision)}, ` +
        `${streamText("stdout", record.stdout)}, ${streamText("stderr", record.stderr)}` +
        `${record.artifact ? `, artifact ${token(record.artifact)}` : ""}, ${client}`
      );
    }
    case "exec-start":
      return `${show(record.program)} ${argsText(record)} in ${show(record.cwd)}, ${token(record.decision)}`;
    case "denied":
      return `${show(record.program)} ${argsText(record)} in ${show(record.cwd)}: rule ${token(record.rule)} (${show(record.reason ?? "")})`;
    case "approval":
      return `${token(record.id)}: ${token(record.outcome)} via ${token(record.via)} (${show(record.detail ?? "")})`;
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
  const position = `${token(String(record.chain ?? "?").slice(0, 8))}#${token(record.seq)}`;
  const said = summary(record);
  return `${token(record.ts)} ${token(record.event)} ${position}${said ? ` ${said}` : ""}`;
}

/** The last `count` non-empty lines of a log's text, with their 1-based line numbers. */
export function lastLines(text: string, count: number): { raw: string; line: number }[] {
  const lines = text.split("\n");
  const numbered = lines
    .map((raw, index) => ({ raw, line: index + 1 }))
    .filter((l) => l.raw !== "");
  return numbered.slice(Math.max(0, numbered.length - count));
}
