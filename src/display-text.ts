// The one way a field a human reads is printed (SPEC §21.1 "what a human is shown cannot lie"):
// JSON string quoting, plus `\u` escapes for every character that could hide, reorder or forge
// what is shown — C0 and C1 controls, DEL, U+2028/U+2029, every format character (Cf: bidi
// controls, zero-width characters, tag characters) and every space separator but U+0020 (Zs).
// A directory named with newlines, terminal escapes or invisible characters shows as one line.

/** Characters JSON.stringify leaves as they are but a human must not see raw. */
const HIDDEN = /[\u007f-\u009f\u2028\u2029\p{Cf}\p{Zs}]/gu;
const SPACE = " ";
const HEX = 16;
const HEX_DIGITS = 4;

function escapeUnit(unit: number): string {
  return `\\u${unit.toString(HEX).padStart(HEX_DIGITS, "0")}`;
}

/** A string as one JSON-quoted line with every hidden character escaped as `\u` sequences. */
export function displayText(value: string): string {
  return JSON.stringify(value).replace(HIDDEN, (char) => {
    if (char === SPACE) return char;
    let escaped = "";
    for (let at = 0; at < char.length; at += 1) escaped += escapeUnit(char.charCodeAt(at));
    return escaped;
  });
}

/** A list of strings as a JSON array whose items are each shown with displayText. */
export function displayList(values: readonly string[]): string {
  return `[${values.map(displayText).join(",")}]`;
}
