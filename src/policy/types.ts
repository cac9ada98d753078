// The shapes of argument rules (SPEC §21) and of the audit settings (SPEC §22), as the manifest
// writes them.

/** One argument pattern: `*` matches any run inside one argument; an array lists alternatives. */
export type Pattern = string | string[];

/** What a rule looks at: `prefix` (args[0..n-1] in order), `contains` (anywhere), or both. */
export interface RuleMatch {
  prefix?: Pattern[];
  contains?: Pattern[];
}

export type RuleDecision = "deny" | "ask";

/** One entry of a program's `rules`. */
export interface Rule {
  match: RuleMatch;
  decision: RuleDecision;
  reason: string;
}

/** How the audit log records arguments. */
export type AuditArgsMode = "digest" | "full";

/** The manifest's top-level `audit` object as written. */
export interface AuditSettings {
  path?: string;
  args?: AuditArgsMode;
  /** §22.1: also send each record's summary to the system log. */
  syslog?: true | string;
}

/** The decision for one call: allow, or the first deciding rule and its 0-based index. */
export type RuleVerdict =
  { decision: "allow" } | { decision: RuleDecision; rule: Rule; index: number };
