// The keys and MACs of a sealed audit log (SPEC §22.1): a verification key K, the evolving keys
// k1 = HMAC-SHA256(K, "evolve"), k(i+1) = HMAC-SHA256(k(i), "evolve"), and a record's seal, the
// last member of its line: `,"seal":{"index":i,"mac":…}}` with mac = HMAC-SHA256(k, the line up to
// that member followed by `}`) — which is exactly the record serialised without its seal.

import { createHmac, timingSafeEqual } from "node:crypto";

/** K and every evolved key: 256 bits. */
export const SEAL_KEY_BYTES = 32;
/** The message every key evolution signs. */
export const EVOLVE_LABEL = "evolve";
/** What starts a seal member: it must be the line's last member. */
export const SEAL_MEMBER = ',"seal":';
/** A key or MAC written as lowercase hex. */
export const KEY_HEX = /^[0-9a-f]{64}$/;

/** The key after `key`: HMAC-SHA256(key, "evolve"). */
export function evolve(key: Buffer): Buffer {
  return createHmac("sha256", key).update(EVOLVE_LABEL).digest();
}

/** The key that seals index `index`, derived from K (index 0 is sealed with k1). */
export function keyForIndex(verificationKey: Buffer, index: number): Buffer {
  let key = evolve(verificationKey);
  for (let i = 0; i < index; i++) key = evolve(key);
  return key;
}

/** The MAC of a record's unsealed serialisation. */
export function sealMac(key: Buffer, body: string | Uint8Array): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

/** Whether two hex MACs are equal (in constant time). */
export function macEquals(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The sealed line for a record serialised without a seal (`body` ends with `}`). */
export function sealedLine(body: string, index: number, mac: string): string {
  return `${body.slice(0, -1)}${SEAL_MEMBER}${JSON.stringify({ index, mac })}}`;
}

/** A sealed line split into the bytes its MAC covers and its seal. */
export interface SplitSeal {
  /** The line up to (not including) the seal member; the MAC covers these bytes and then `}`. */
  head: Buffer;
  index: number;
  mac: string;
}

/** The MAC of a split line: its head followed by `}` (no copy of the line). */
export function splitMac(key: Buffer, split: SplitSeal): string {
  return createHmac("sha256", key).update(split.head).update("}").digest("hex");
}

/**
 * Splits a line whose parsed record has a `seal`; a string says why the seal is malformed (not
 * the last member, not `{ index, mac }` in that form).
 */
export function splitSealed(line: Buffer, seal: unknown): SplitSeal | string {
  const at = line.lastIndexOf(SEAL_MEMBER);
  const value = seal as { index?: unknown; mac?: unknown } | null;
  if (
    at < 0 ||
    typeof value !== "object" ||
    value === null ||
    typeof value.index !== "number" ||
    !Number.isInteger(value.index) ||
    value.index < 0 ||
    typeof value.mac !== "string" ||
    !KEY_HEX.test(value.mac)
  ) {
    return 'the seal is not {"index": integer ≥ 0, "mac": 64 hex} as the line\'s last member';
  }
  const tail = `${SEAL_MEMBER}{"index":${value.index},"mac":"${value.mac}"}}`;
  if (line.length - at !== tail.length || line.toString("latin1", at) !== tail) {
    return "the seal is not the line's last member in the form the writer gives it";
  }
  return { head: line.subarray(0, at), index: value.index, mac: value.mac };
}
