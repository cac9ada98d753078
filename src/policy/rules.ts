// Argument rules (SPEC §21): whole-argument, case-sensitive patterns where `*` matches any run of
// characters inside one argument. Decided in argv space, so quoting cannot get around them.

import { globMatches } from "../glob.js";
import type { Grammar, StrictestDecision } from "./grammar/index.js";
import type { Pattern, Rule, RuleMatch, RuleVerdict } from "./types.js";

/** Whether an argument matches a Pattern (a glob, or any of several alternatives). */
export function patternMatches(pattern: Pattern, arg: string): boolean {
  return typeof pattern === "string"
    ? globMatches(pattern, arg)
    : pattern.some((alternative) => globMatches(alternative, arg));
}

/** Whether a rule's `match` holds for the arguments (both parts when both are given). */
export function ruleMatches(match: RuleMatch, args: readonly string[]): boolean {
  if (match.prefix !== undefined) {
    const prefix = match.prefix;
    if (args.length < prefix.length) return false;
    if (!prefix.every((pattern, index) => patternMatches(pattern, args[index]!))) return false;
  }
  if (match.contains !== undefined) {
    const found = match.contains.every((pattern) =>
      args.some((arg) => patternMatches(pattern, arg)),
    );
    if (!found) return false;
  }
  return true;
}

/** The decision for a call: the first matching `deny`, else the first matching `ask`, else allow. */
export function decide(rules: readonly Rule[], args: readonly string[]): RuleVerdict {
  let ask: RuleVerdict | undefined;
  for (const [index, rule] of rules.entries()) {
    if (!ruleMatches(rule.match, args)) continue;
    if (rule.decision === "deny") return { decision: "deny", rule, index };
    ask ??= { decision: "ask", rule, index };
  }
  return ask ?? { decision: "allow" };
}

/** A rule in one line, as doctor and messages show it. */
export function describeRule(rule: Rule, index: number): string {
  const parts: string[] = [];
  if (rule.match.prefix !== undefined) parts.push(`prefix ${JSON.stringify(rule.match.prefix)}`);
  if (rule.match.contains !== undefined) {
    parts.push(`contains ${JSON.stringify(rule.match.contains)}`);
  }
  return `rule ${index}: ${rule.decision} when ${parts.join(" and ")} (${JSON.stringify(rule.reason)})`;
}

const STRENGTH = { allow: 0, ask: 1, deny: 2 } as const;

/** The stronger of two verdicts (deny over ask over allow; the first one on a tie). */
function stronger(a: RuleVerdict, b: RuleVerdict): RuleVerdict {
  return STRENGTH[b.decision] > STRENGTH[a.decision] ? b : a;
}

/** Whether some pattern of a rule matches `word` (the rule "names" it, e.g. push). */
function ruleNames(rule: Rule, word: string): boolean {
  const patterns = [...(rule.match.prefix ?? []), ...(rule.match.contains ?? [])];
  return patterns.some((pattern) => patternMatches(pattern, word));
}

/** The strictest rule of a program (or of those naming a word): its first deny, else first ask. */
export function strictestVerdict(
  rules: readonly Rule[],
  strictest: StrictestDecision,
): RuleVerdict {
  let ask: RuleVerdict | undefined;
  for (const [index, rule] of rules.entries()) {
    if (strictest.naming !== undefined && !ruleNames(rule, strictest.naming)) continue;
    const verdict = { decision: rule.decision, rule, index, because: strictest.why };
    if (rule.decision === "deny") return verdict;
    ask ??= verdict;
  }
  return ask ?? { decision: "allow" };
}

/**
 * The decision for a call of a program (SPEC §21.1): with a known grammar, the strongest verdict
 * over every canonical reading and, when the call cannot be read exactly, its strictest rule;
 * without one, the literal args.
 */
export function decideCall(
  rules: readonly Rule[],
  args: readonly string[],
  grammar: Grammar | undefined,
): RuleVerdict {
  if (rules.length === 0) return { decision: "allow" };
  if (!grammar) return decide(rules, args);
  const call = grammar.canonical(args);
  let verdict: RuleVerdict = { decision: "allow" };
  for (const reading of call.readings) verdict = stronger(verdict, decide(rules, reading));
  if (call.strictest) verdict = stronger(verdict, strictestVerdict(rules, call.strictest));
  return verdict;
}
