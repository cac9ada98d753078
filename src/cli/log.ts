// The server's only log sink: stderr, one line at a time. Never pass arguments, input,
// environment values or output here (SPEC §15).

/** Writes one line to stderr, prefixed with the program name. */
export function logLine(message: string): void {
  process.stderr.write(`system-command-mcp: ${message}\n`);
}

/** The one form a coded error takes on stderr: `system-command-mcp: CODE: message`. */
export function logError(error: { code: string; message: string }): void {
  logLine(`${error.code}: ${error.message}`);
}
