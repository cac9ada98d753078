// The one glob matcher: `*` matches any run of characters (the empty run included), every other
// character is literal, and the whole text must match. No regular expressions: a pattern cannot
// make the match slow (each literal piece is found once with indexOf, left to right). Case is the
// caller's business (environment/patterns.ts folds it; argument rules, §21, keep it).

/** The one wildcard character. */
export const GLOB_WILDCARD = "*";

/** Whether the whole of `text` matches `glob`, case-sensitively. */
export function globMatches(glob: string, text: string): boolean {
  const parts = glob.split(GLOB_WILDCARD);
  if (parts.length === 1) return glob === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  // The first occurrence of each middle piece leaves the most room for the pieces after it.
  let at = first.length;
  const end = text.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}
