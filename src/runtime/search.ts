// system_output's `grep` search mode (SPEC §3.3): request checks, then one bounded scan of an
// artifact's stream or of a handed-out execution's output so far.

import { CommandError } from "../errors.js";
import { GREP_DEFAULT_MAX_MATCHES, GREP_MAX_MATCHES } from "../limits.js";
import { grepStream, type GrepPage } from "../search/grep.js";
import { compileLinePattern } from "../search/line-pattern.js";
import { checkOffsetWithin } from "../output/page.js";
import type { StreamName, StreamReader } from "../output/types.js";

/** The `grep` argument of system_output. */
export interface GrepRequest {
  pattern: string;
  maxMatches?: number;
  ignoreCase?: boolean;
}

/** Scans the stream `open` gives from `offset`; `key` names the stream for line-count reuse. */
export async function searchStream(
  grep: GrepRequest,
  stream: StreamName,
  offset: number,
  key: string,
  open: () => Promise<StreamReader>,
): Promise<GrepPage> {
  const maxMatches = grep.maxMatches ?? GREP_DEFAULT_MAX_MATCHES;
  if (!Number.isInteger(maxMatches) || maxMatches < 1 || maxMatches > GREP_MAX_MATCHES) {
    throw new CommandError(
      "INVALID_REQUEST",
      `grep.maxMatches must be an integer from 1 to ${GREP_MAX_MATCHES}, got ${maxMatches}`,
    );
  }
  if (!Number.isSafeInteger(offset)) {
    throw new CommandError("INVALID_OUTPUT_OFFSET", `offset must be an integer, got ${offset}`);
  }
  const pattern = await compileLinePattern(grep.pattern, grep.ignoreCase ?? false, "grep.pattern");
  const reader = await open();
  try {
    if (!reader.final && offset > reader.length) {
      // Past the bytes so far of a running execution: nothing to scan yet.
      return emptyScan(offset);
    }
    checkOffsetWithin(offset, reader.length, `the ${stream} stream`);
    return await grepStream({ ...reader, key: `${key}:${stream}` }, offset, pattern, maxMatches);
  } finally {
    await reader.close();
  }
}

function emptyScan(offset: number): GrepPage {
  return {
    offset,
    bytes: 0,
    nextOffset: offset,
    eof: false,
    encoding: "utf8",
    matches: [],
    truncated: false,
    scanLimited: false,
  };
}
