// The numbers of argument rules, approvals and the audit log (SPEC §21, §22).

/** How long a human may take to answer an elicitation before it counts as a refusal. */
export const ELICITATION_TIMEOUT_MS = 120_000;
/** How long a pending request may be approved, and how long a granted approval stays valid. */
export const APPROVAL_VALIDITY_MS = 600_000;
/** Approval ids and audit chain ids: 128 random bits, 32 lowercase hex characters. */
export const RANDOM_ID_BYTES = 16;
/** An approval id as the tools and the CLI accept it. */
export const APPROVAL_ID_PATTERN = /^[0-9a-f]{32}$/;
/** Modes of the approval and audit files and of their directories. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;
/** The sub-directory of the per-user state directory (§19) holding pending approvals. */
export const APPROVALS_DIR_NAME = "approvals";
/** `audit tail` without -n. */
export const DEFAULT_TAIL_EVENTS = 20;
