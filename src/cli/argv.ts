// Which command an argv names, before commander parses it (SPEC §13): no command, or flags
// first, is the legacy form of `serve`.

const INFO_FLAGS = new Set(["-h", "--help", "-V", "--version"]);

/** Whether `argv` (without node and the script) starts the server the legacy way, or is empty. */
export function isLegacyServe(argv: readonly string[]): boolean {
  const first = argv[0];
  return first === undefined || (first.startsWith("-") && !INFO_FLAGS.has(first));
}

/** Whether `argv` runs `serve` (the long-lived MCP server), named or in the legacy form. */
export function runsServe(argv: readonly string[]): boolean {
  return argv[0] === "serve" || isLegacyServe(argv);
}
