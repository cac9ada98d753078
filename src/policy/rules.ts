// Argument rules (SPEC §21): whole-argument, case-sensitive patterns where `*` matches any run of
// characters inside one argument. Decided in argv space, so quoting cannot get around them.

import type { Pattern, Rule, RuleMatch, RuleVerdict } from "./types.js";

const WILDCARD = "*";

/** Whether one argument matches one glob (only `*` is special). */
function globMatches(glob: string, arg: string): boolean {
  const parts = glob.split(WILDCARD);
  if (parts.length === 1) return glob === arg;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (arg.length < first.length + last.length) return false;
  if (!arg.startsWith(first) || !arg.endsWith(last)) return false;
  let at = first.length;
  const end = arg.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = arg.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

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
