// The digests that bind approvals and audit records to one exact call (SPEC §21, §22).

import { createHash, randomBytes } from "node:crypto";
import { RANDOM_ID_BYTES } from "./constants.js";

/** sha256 hex of a string or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The audit log's argsDigest: sha256 of the JSON argument array. */
export function argsDigest(args: readonly string[]): string {
  return sha256Hex(JSON.stringify(args));
}

/** Which directory a cwd is (SPEC §21.1): its device and inode, as decimal strings. */
export interface CwdIdentity {
  dev: string;
  ino: string;
}

/**
 * What an approval is bound to: program, args, the cwd by path and by identity (device and
 * inode: another directory later renamed to the same path is another cwd), and the manifest path.
 */
export function callDigest(
  program: string,
  args: readonly string[],
  cwd: string,
  identity: CwdIdentity,
  manifestPath: string | undefined,
): string {
  return sha256Hex(
    JSON.stringify([program, args, cwd, identity.dev, identity.ino, manifestPath ?? null]),
  );
}

/** A fresh 128-bit id in 32 lowercase hex characters. */
export function randomId(): string {
  return randomBytes(RANDOM_ID_BYTES).toString("hex");
}
