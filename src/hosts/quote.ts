// Quoting of strings for each snippet format, so any path (spaces, quotes, backslashes,
// control characters, non-ASCII) survives the host's parser unchanged.

/** A TOML basic string: `"` and `\` escaped, control characters and DEL as escapes. */
export function tomlString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\t") out += "\\t";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return out + '"';
}

/** A TOML key: bare when it only uses `A-Za-z0-9_-`, else a quoted basic string. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** A YAML double-quoted scalar. JSON string syntax is valid YAML 1.1 and 1.2 here. */
export function yamlString(value: string): string {
  // JSON.stringify escapes `"`, `\` and C0 controls; YAML also wants DEL and the C1/line
  // separator characters escaped in a double-quoted scalar to round-trip everywhere.
  return JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029]/g, (char) => {
    return `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
  });
}

/** One word for a POSIX shell: bare when it is plainly safe, else single-quoted. */
export function posixShellWord(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** One word for PowerShell: bare when plainly safe, else a single-quoted literal string. */
export function powershellWord(value: string): string {
  if (/^[A-Za-z0-9_+=:,./\\-]+$/.test(value) && !value.startsWith("-")) return value;
  // Inside '…' only the quote characters themselves are special; PowerShell also treats
  // the typographic single quotes as quotes, so all of them are doubled.
  return `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (quote) => quote + quote)}'`;
}
