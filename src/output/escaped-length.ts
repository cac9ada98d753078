// How long bytes get as JSON string content (SPEC §7, §3.3): hosts cut results by characters, and
// JSON.stringify escapes control characters to six of them.

import { completeCodePointEnd } from "./utf8.js";

/**
 * Characters `JSON.stringify` needs for each byte at most: `\"`, `\\` and the short escapes take
 * 2, other control characters 6 (`\u00XX`), any other byte at most 1 (a multi-byte character is
 * one or two UTF-16 units, an invalid byte one U+FFFD).
 */
export const ESCAPED_COST = (() => {
  const cost = new Uint8Array(256).fill(1);
  for (let byte = 0; byte < 0x20; byte++) cost[byte] = 6;
  for (const byte of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) cost[byte] = 2;
  return cost;
})();

/** An upper bound of the JSON-escaped length of these bytes decoded as UTF-8. */
export function escapedLength(bytes: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i++) sum += ESCAPED_COST[bytes[i]!]!;
  return sum;
}

/** The end of the longest prefix of `bytes` that escapes to at most `chars`, on a code point. */
export function prefixWithinEscaped(bytes: Uint8Array, chars: number, end = bytes.length): number {
  let at = 0;
  let sum = 0;
  while (at < end && sum + ESCAPED_COST[bytes[at]!]! <= chars) {
    sum += ESCAPED_COST[bytes[at]!]!;
    at++;
  }
  return at === end ? end : completeCodePointEnd(bytes, at);
}
