// The programs every host session runs through system_exec (all `node -e`, so they exist
// wherever the tests run) and what each must produce.

/** Arguments that a shell would mangle; system_exec passes them literally. */
export const LITERAL_ARGS = ["a b", "$HOME", "*", "it's", '"q"', "; echo x"];

/** `node -e` printing its own arguments as JSON: stdout must be exactly LITERAL_STDOUT. */
export const LITERAL_CALL = {
  program: "node",
  args: ["-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", ...LITERAL_ARGS],
};
export const LITERAL_STDOUT = JSON.stringify(LITERAL_ARGS);

/** A nonzero exit with a little stderr: a normal result. */
export const NONZERO_EXIT_CODE = 3;
export const NONZERO_CALL = {
  program: "node",
  args: ["-e", `process.stderr.write("failing on purpose"); process.exit(${NONZERO_EXIT_CODE})`],
};

/** A request the runtime refuses with a coded error (the schema has no upper bound to check). */
export const INVALID_TIMEOUT_CALL = { program: "node", args: ["--version"], timeoutMs: 600_001 };

/** Lines of the big output: `line 00001 ok` …, one marker line in the middle. */
export const BIG_LINES = 20_000;
export const MARKER_LINE = 12_345;
export const MARKER_TEXT = "FAILED test-4711: expected 1, got 2";

/** The big output itself (about 280 KB, far past the inline budget). */
export function bigOutput(): string {
  let out = "";
  for (let line = 1; line <= BIG_LINES; line++) {
    out += line === MARKER_LINE ? `${MARKER_TEXT}\n` : `line ${String(line).padStart(5, "0")} ok\n`;
  }
  return out;
}

/** `node -e` writing bigOutput() to stdout. */
export const BIG_CALL = {
  program: "node",
  args: [
    "-e",
    `let o = ""; for (let l = 1; l <= ${BIG_LINES}; l++) o += l === ${MARKER_LINE} ? ` +
      `${JSON.stringify(MARKER_TEXT + "\n")} : "line " + String(l).padStart(5, "0") + " ok\\n"; ` +
      "process.stdout.write(o)",
  ],
};

/** The byte offset where the marker line starts in bigOutput(). */
export function markerOffset(): number {
  const out = bigOutput();
  return Buffer.byteLength(out.slice(0, out.indexOf(MARKER_TEXT)));
}

/** A program that runs longer than the small host timeouts of the yield tests. */
export const SLOW_MS = 8_000;
export const SLOW_STDOUT = "done after 8 s\n";
export const SLOW_CALL = {
  program: "node",
  args: ["-e", `setTimeout(() => console.log("done after 8 s"), ${SLOW_MS})`],
};

/**
 * The head of a truncated excerpt: the text before the `[... N bytes omitted ...]` marker; its
 * byte length is where the omitted part of the stream starts.
 */
export function excerptHeadBytes(text: string): number {
  const cut = text.indexOf("\n[... ");
  if (cut === -1) throw new Error("the excerpt has no omission marker");
  return Buffer.byteLength(text.slice(0, cut));
}
