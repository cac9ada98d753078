// Yes/no questions on a terminal for `init` (SPEC §13). Questions go to stderr: stdout carries
// the host snippets.

import { createInterface } from "node:readline";
import { CommandError } from "../../errors.js";

/** Answers accepted as yes and as no (case-insensitive); an empty answer takes the default. */
const YES_ANSWERS = new Set(["y", "yes"]);
const NO_ANSWERS = new Set(["n", "no"]);

/** The exit status of a run interrupted with Ctrl+C (128 + SIGINT). */
const INTERRUPTED_EXIT_CODE = 130;

/** Asks yes/no questions on a terminal. */
export interface YesNoPrompt {
  ask(question: string, defaultYes: boolean): Promise<boolean>;
  close(): void;
}

/** TTY_REQUIRED unless stdin is a terminal: prompts need someone to answer them. */
export function requireTerminal(alternative: string): void {
  if (process.stdin.isTTY !== true) {
    throw new CommandError(
      "TTY_REQUIRED",
      `init asks a question per program and needs a terminal on stdin, got none; ${alternative}`,
    );
  }
}

/**
 * A prompt on stdin/stderr that repeats a question until it gets y, n or an empty line. Lines are
 * read through one iterator, so answers typed ahead are kept for the next questions.
 */
export function openPrompt(): YesNoPrompt {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  lines.on("SIGINT", () => {
    lines.close();
    process.stderr.write("\n");
    process.exit(INTERRUPTED_EXIT_CODE);
  });
  const answers = lines[Symbol.asyncIterator]();
  return {
    async ask(question, defaultYes) {
      const hint = defaultYes ? "[Y/n]" : "[y/N]";
      for (;;) {
        lines.setPrompt(`${question} ${hint} `);
        lines.prompt();
        const next = await answers.next();
        if (next.done === true) {
          throw new CommandError(
            "TTY_REQUIRED",
            "stdin ended before every question was answered; nothing was written (use --yes to skip the questions)",
          );
        }
        const answer = String(next.value).trim().toLowerCase();
        if (answer === "") return defaultYes;
        if (YES_ANSWERS.has(answer)) return true;
        if (NO_ANSWERS.has(answer)) return false;
        process.stderr.write(`expected y or n, got "${answer}"\n`);
      }
    },
    close() {
      lines.close();
    },
  };
}
