// The server's only log sink: stderr, one line at a time. Never pass arguments, input,
// environment values or output here (SPEC §15).

/** Writes one line to stderr, prefixed with the program name. */
export function logLine(message: string): void {
  process.stderr.write(`system-command-mcp: ${message}\n`);
}
