// `exec --format text` (SPEC §13, Revision 3): the excerpts go where the program wrote them —
// stdout to stdout, stderr to stderr, omission marker included — and one summary line goes to
// stderr only when something was truncated, timed out or killed.

import { STREAMS } from "../output/types.js";
import type { CanonicalResult } from "../runtime/types.js";

/** The one summary line, or undefined when the excerpts are the whole story. */
export function summaryLine(result: CanonicalResult): string | undefined {
  const events: string[] = [];
  if (result.timedOut) events.push(`timed out after ${result.durationMs} ms`);
  if (result.cancelled) events.push("cancelled");
  if (result.signal !== null) events.push(`killed by ${result.signal}`);
  for (const stream of STREAMS) {
    const output = result[stream];
    if (output.truncated) {
      events.push(
        `${stream} truncated (${output.omittedBytes} of ${output.totalBytes} bytes omitted)`,
      );
    }
  }
  if (events.length === 0) return undefined;
  const artifact = result.artifact.id ? `; complete output: artifact ${result.artifact.id}` : "";
  return `system-command-mcp: ${result.programSelection.logicalName}: ${events.join(", ")}${artifact}`;
}

/** Writes the result as text; resolves once both streams took their bytes. */
export async function writeText(result: CanonicalResult): Promise<void> {
  const summary = summaryLine(result);
  await Promise.all([
    write(process.stdout, result.stdout.text),
    write(process.stderr, result.stderr.text + summaryText(result.stderr.text, summary)),
  ]);
}

/** The summary on a line of its own, also after an excerpt that ends without a newline. */
function summaryText(before: string, summary: string | undefined): string {
  if (summary === undefined) return "";
  return `${before === "" || before.endsWith("\n") ? "" : "\n"}${summary}\n`;
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  if (text === "") return Promise.resolve();
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
