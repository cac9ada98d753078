// The seal state of a sealed audit log (SPEC §22.1): `{ index, key }` at PATH.seal, mode 0600,
// `index` the next record's seal index and `key` the key that seals it. Created by `audit seal`,
// rewritten in place (and fdatasynced) by every writer after each sealed record.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { CommandError, errnoCode } from "../errors.js";
import { PRIVATE_FILE_MODE } from "./constants.js";
import { KEY_HEX, SEAL_KEY_BYTES, evolve } from "./seal-keys.js";

/** The seal state file beside a log. */
export const SEAL_STATE_SUFFIX = ".seal";
/** Longest state file read (one short JSON object is written). */
const MAX_STATE_BYTES = 4096;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export interface SealState {
  index: number;
  key: Buffer;
}

/** Where the seal state of `log` is. */
export function sealStatePath(log: string): string {
  return `${log}${SEAL_STATE_SUFFIX}`;
}

/** The state's bytes as written. */
export function serializeSealState(state: SealState): string {
  return JSON.stringify({ index: state.index, key: state.key.toString("hex") }) + "\n";
}

/** Parses a state file's text; a string says what is wrong with it. */
export function parseSealState(text: string): SealState | string {
  let value: { index?: unknown; key?: unknown };
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    return "not JSON";
  }
  const { index, key } = value ?? {};
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0) {
    return `expected "index" an integer ≥ 0, got ${JSON.stringify(index)}`;
  }
  if (typeof key !== "string" || !KEY_HEX.test(key)) {
    return 'expected "key" 64 lowercase hex characters';
  }
  return { index, key: Buffer.from(key, "hex") };
}

/** Reads a state file by its open descriptor. */
export function readSealStateFd(fd: number, file: string): SealState {
  const buffer = Buffer.alloc(MAX_STATE_BYTES);
  const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
  const parsed = parseSealState(buffer.toString("utf8", 0, length));
  if (typeof parsed === "string") {
    throw new CommandError("AUDIT_UNAVAILABLE", `the seal state ${file} is damaged: ${parsed}`);
  }
  return parsed;
}

/** Rewrites the state in place and makes it durable before returning. */
export function writeSealStateFd(fd: number, state: SealState): void {
  const bytes = Buffer.from(serializeSealState(state), "utf8");
  const written = fs.writeSync(fd, bytes, 0, bytes.length, 0);
  if (written !== bytes.length) throw new Error(`short write (${written} of ${bytes.length})`);
  // The state only grows (its index gains digits); a truncation is needed only after --force.
  if (fs.fstatSync(fd).size !== bytes.length) fs.ftruncateSync(fd, bytes.length);
  fs.fdatasyncSync(fd);
}

/** The state at `file`; "missing" when there is none; a string when unreadable or damaged. */
export function readSealStateFile(file: string): SealState | "missing" | { problem: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    return code === "ENOENT" ? "missing" : { problem: `cannot be read (${code})` };
  }
  try {
    const buffer = Buffer.alloc(MAX_STATE_BYTES);
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const parsed = parseSealState(buffer.toString("utf8", 0, length));
    return typeof parsed === "string" ? { problem: parsed } : parsed;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `audit seal`: a fresh verification key K and the state { 0, k1 } written 0600 (through a
 * temporary file and a rename, so a reader never sees half a state). Returns K, which is never
 * written anywhere. Without `force` an existing state is AUDIT_SEAL_EXISTS.
 */
export function createSeal(log: string, force: boolean): Buffer {
  const file = sealStatePath(log);
  if (!force && fs.existsSync(file)) {
    throw new CommandError(
      "AUDIT_SEAL_EXISTS",
      `${file} already exists: the log is sealed; pass --force to replace the seal (records ` +
        "sealed under the old key then verify only with the old key)",
    );
  }
  const verificationKey = randomBytes(SEAL_KEY_BYTES);
  const temp = `${file}.new-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    const fd = fs.openSync(temp, "wx", PRIVATE_FILE_MODE);
    try {
      fs.fchmodSync(fd, PRIVATE_FILE_MODE);
      writeSealStateFd(fd, { index: 0, key: evolve(verificationKey) });
    } finally {
      fs.closeSync(fd);
    }
    if (!force)
      fs.linkSync(temp, file); // EEXIST when another `audit seal` won the race
    else fs.renameSync(temp, file);
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const code = errnoCode(error);
    throw new CommandError(
      code === "EEXIST" ? "AUDIT_SEAL_EXISTS" : "AUDIT_UNAVAILABLE",
      `the seal state ${file} cannot be written (${code}); expected a writable directory beside the log`,
    );
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return verificationKey;
}
