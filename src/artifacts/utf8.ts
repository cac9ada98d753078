// UTF-8 page boundaries (SPEC §3.3): a utf8 page ends at the last complete code point, a code
// point cut by the page limit is left for the next page, and a page is never empty while bytes
// remain. Boundaries fall where a whole-stream decoder would be between characters, so the pages'
// texts concatenate to the text of the whole stream.

/** How many bytes a UTF-8 decoder may need to look past the limit to place a boundary. */
export const UTF8_LOOKAHEAD_BYTES = 3;
const MAX_CONTINUATION_BYTES = 3;

/**
 * Where a utf8 page should end. `window` holds the page's `want` bytes followed by up to
 * UTF8_LOOKAHEAD_BYTES more (fewer only where the bytes known so far end). `final` says whether
 * the window's end is the stream's final end; when it is not (a live spool still being written), a
 * character cut by the end of the known bytes is left for later, which may give an empty page.
 * Otherwise the result is ≥ 1; it exceeds `want` only when the first code point (or the first
 * invalid sequence) is longer than `want`.
 */
export function utf8PageEnd(window: Uint8Array, want: number, final: boolean): number {
  if (want >= window.length && final) return window.length;
  const start = lastSequenceStart(window, want);
  const lead = window[start]!;
  const length = sequenceLength(lead);
  if (length <= 1 || start + length <= want) return want;
  const valid = validPrefixLength(window, start, length);
  // Already invalid inside the page: the decoder resynchronises before `want`.
  if (valid < want - start) return want;
  // A valid prefix reaching the end of the bytes written so far: wait for the rest.
  const waitsForMore = !final && valid < length && start + valid === window.length;
  if (waitsForMore) return start;
  // A character (or the invalid prefix of one) starts before `want` and ends after it.
  return start > 0 ? start : valid;
}

/** The start of the sequence holding byte want-1: back over at most three continuation bytes. */
function lastSequenceStart(window: Uint8Array, want: number): number {
  let position = want - 1;
  let steps = 0;
  while (position > 0 && steps < MAX_CONTINUATION_BYTES && isContinuation(window[position]!)) {
    position -= 1;
    steps += 1;
  }
  return position;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Bytes a sequence starting with `lead` takes; 1 for ASCII and for bytes that start nothing. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/** The allowed range of the byte after a lead byte (no overlongs, surrogates or > U+10FFFF). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** How many bytes from `start` (lead included, at most `length`) form a valid UTF-8 prefix. */
function validPrefixLength(window: Uint8Array, start: number, length: number): number {
  const [low, high] = secondByteRange(window[start]!);
  let count = 1;
  while (count < length && start + count < window.length) {
    const byte = window[start + count]!;
    const ok = count === 1 ? byte >= low && byte <= high : isContinuation(byte);
    if (!ok) break;
    count += 1;
  }
  return count;
}
