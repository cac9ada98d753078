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

/** What the gate and the audit log read of a Registered Program (programs/ builds those). */
export interface PolicyProgram {
  name: string;
  /** How the program was declared and found: the grammar (§21.1) is chosen by name or basename. */
  declaredCandidate: string;
  spawnPath: string;
  executable: string;
  /** Argument rules (§21), in manifest order; absent when there are none. */
  rules?: readonly Rule[];
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
  | { decision: "allow" }
  | {
      decision: RuleDecision;
      rule: Rule;
      index: number;
      /** Set when the call could not be read exactly and the strictest rule decided (§21.1). */
      because?: string;
    };
