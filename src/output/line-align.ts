// Line-aligned excerpt cuts (SPEC §7 Revision 3): a head ends after a newline and a tail starts
// after one when a newline is near the cut, so no fragment of a line reads as a whole line.

import { LINE_ALIGN_FRACTION_DIVISOR } from "../limits.js";
import type { ExcerptParts } from "./projection.js";

const NEWLINE = 0x0a;

/**
 * The head shortened to end just after the last `\n` in its final quarter, and the tail shortened
 * to start just after the first `\n` in its first quarter; a part without a newline there stays as
 * it is. Only ever shortens (the bytes dropped count as omitted), so it runs last, after the code
 * point rule and the escaped-length guard. A whole stream is left alone.
 */
export function alignToLines(parts: ExcerptParts): ExcerptParts {
  if (parts.whole) return parts;
  return { whole: false, head: alignHead(parts.head), tail: alignTail(parts.tail) };
}

function alignHead(head: Buffer): Buffer {
  if (head.length === 0) return head;
  const from = head.length - Math.ceil(head.length / LINE_ALIGN_FRACTION_DIVISOR);
  const at = head.lastIndexOf(NEWLINE);
  return at >= from ? head.subarray(0, at + 1) : head;
}

function alignTail(tail: Buffer): Buffer {
  if (tail.length === 0) return tail;
  const within = Math.ceil(tail.length / LINE_ALIGN_FRACTION_DIVISOR);
  const at = tail.indexOf(NEWLINE);
  return at !== -1 && at < within ? tail.subarray(at + 1) : tail;
}
