// Execution ids (SPEC §4): 128 random bits as 32 lowercase hex characters, cut from one block of
// random bytes so that a call costs no CSPRNG round trip of its own.

import { randomFillSync } from "node:crypto";

/** An execution id's random bytes: 128 bits, 32 lowercase hex characters (SPEC §4). */
const EXECUTION_ID_BYTES = 16;
/** Ids are cut from one block of random bytes, refilled when used up: one CSPRNG call per 256. */
const idPool = Buffer.alloc(EXECUTION_ID_BYTES * 256);
let idOffset = idPool.length;

/** A new 128-bit execution id, 32 lowercase hex characters. */
export function newExecutionId(): string {
  if (idOffset + EXECUTION_ID_BYTES > idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const id = idPool.toString("hex", idOffset, idOffset + EXECUTION_ID_BYTES);
  idOffset += EXECUTION_ID_BYTES;
  return id;
}
