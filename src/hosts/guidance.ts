// The host guidance of SPEC §14 (and §19), sent as the server's `instructions` at initialize.
// AGENTS.md and DSH.md quote these three lines verbatim; a test keeps them in step.

/** The guidance, one line per concern: what the tool is for, results, long runs. */
export const SERVER_INSTRUCTION_LINES: readonly [string, string, string] = [
  "Use system_exec for one direct run of a registered program with literal args (no shell); use the host shell for pipelines, redirects, globbing, variable expansion and cd, and the host file tools to read or write files.",
  'A nonzero exit is a normal result, not a tool error; results leave out fields at their obvious value (no signal, no timeout, empty stderr; detail "full" shows all); a truncated stdout/stderr excerpt comes with an artifact id: read it with system_output (follow nextOffset; a negative offset reads the end; grep finds lines).',
  'Roots limit only where a process starts, they are not a sandbox; for dev servers and watchers pass background: true (allowed for node, npm, npx, pnpm, yarn, bun and python by default), and on a status "running" handle continue with system_wait, system_output with executionId, or system_cancel.',
];

/** The `instructions` string of the MCP initialize result: exactly three lines. */
export const SERVER_INSTRUCTIONS: string = SERVER_INSTRUCTION_LINES.join("\n");
