// Name patterns of environment hygiene (SPEC §23): `*` is any run of characters, everything else
// is literal, and matching ignores case on every platform. No regular expressions: a linear
// wildcard match cannot be made slow by a pattern.

/** The one wildcard: any run of characters, the empty run included. */
const WILDCARD = "*";

/** Whether `name` matches the glob `pattern`, case-insensitively. */
export function matchesNamePattern(name: string, pattern: string): boolean {
  const text = name.toUpperCase();
  const glob = pattern.toUpperCase();
  let t = 0;
  let g = 0;
  // Where the last `*` was seen in the glob, and the text position it currently covers up to.
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (g < glob.length && glob[g] !== WILDCARD && glob[g] === text[t]) {
      t += 1;
      g += 1;
    } else if (g < glob.length && glob[g] === WILDCARD) {
      star = g;
      resume = t;
      g += 1;
    } else if (star !== -1) {
      // Let the last `*` swallow one more character and retry from there.
      g = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === WILDCARD) g += 1;
  return g === glob.length;
}

/** Whether `name` matches any of the patterns. */
export function matchesAnyPattern(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesNamePattern(name, pattern));
}
