#!/usr/bin/env node
// The `system-command-mcp` command line (SPEC §13): commander, with exitOverride so that every
// usage error is `system-command-mcp: CODE: message` + usage, exit 2.

import { Command, CommanderError, Option } from "commander";
import { CommandError, type ErrorCode } from "../errors.js";
import { SERVER_VERSION } from "../version.js";
import { isLegacyServe } from "./argv.js";
import { registerManagementCommands } from "./commands/index.js";
import { logError, logLine } from "./log.js";
import { shortUsage, unknownCommandError } from "./unknown-command.js";
import { isUsageError } from "./usage-codes.js";
import {
  addManifestOptions,
  addResultDetailOption,
  addRuntimeOptions,
  EXEC_FORMATS,
  integerIn,
  type CommonOptions,
} from "./options.js";
import { MAX_FOREGROUND_TIMEOUT_MS } from "../limits.js";

/** Exit codes (§13). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const COMMANDER_CODES: Record<string, ErrorCode> = {
  "commander.unknownCommand": "UNKNOWN_COMMAND",
  "commander.unknownOption": "UNKNOWN_OPTION",
  "commander.invalidArgument": "INVALID_OPTION",
  "commander.optionMissingArgument": "INVALID_OPTION",
  "commander.missingArgument": "INVALID_OPTION",
  "commander.missingMandatoryOptionValue": "INVALID_OPTION",
  "commander.excessArguments": "INVALID_OPTION",
  "commander.conflictingOption": "INVALID_OPTION",
};

/** Builds the commander program; `run` receives each command's action. */
function buildProgram(exitWith: (code: number) => void): Command {
  const program = new Command("system-command-mcp")
    .description("Run registered programs for coding agents over MCP (stdio), with no shell.")
    .version(SERVER_VERSION, "-V, --version")
    .exitOverride()
    .enablePositionalOptions()
    .showSuggestionAfterError(false)
    .configureOutput({ writeErr: () => {}, outputError: () => {} });

  const serveCommand = program
    .command("serve", { isDefault: false })
    .description("run the MCP server on stdio");
  addResultDetailOption(addRuntimeOptions(addManifestOptions(serveCommand))).action(
    async (options: CommonOptions) => {
      const { serve } = await import("./serve.js");
      await serve(options);
    },
  );

  const execCommand = program
    .command("exec")
    .description(
      "run one program through the runtime and print the Canonical Result; exits with the " +
        "program's status (128+N killed by signal N, 124 timed out, 125 nothing ran)",
    )
    .argument("<program>", "registered Logical Program")
    .argument("[args...]", "arguments, passed literally")
    .option(
      "--cwd <path>",
      "working directory inside a Root, relative to the current one (default: the current " +
        "directory when inside a Root, else the only Root)",
    )
    .addOption(
      new Option("--timeout-ms <n>", "timeout in milliseconds").argParser(
        integerIn(1, MAX_FOREGROUND_TIMEOUT_MS),
      ),
    )
    .option("--input-file <file>", "file whose text is written to stdin")
    .option("--approval-id <id>", "after APPROVAL_REQUIRED and `approve <id>`: the approval (§21)")
    .addOption(
      new Option("--format <format>", "how to print the result")
        .choices(EXEC_FORMATS)
        .default("json"),
    )
    .passThroughOptions()
    .allowUnknownOption(false);
  addRuntimeOptions(addManifestOptions(execCommand)).action(
    async (name: string, args: string[], options) => {
      const { execCommand: run } = await import("./exec.js");
      exitWith(await run(name, args, options));
    },
  );

  registerManagementCommands(program, exitWith);
  return program;
}

/** Turns argv into a command: no command + flags is the legacy form of `serve`. */
function normalizeArgv(argv: string[]): string[] {
  if (argv.length === 0) return ["serve"];
  if (isLegacyServe(argv)) {
    logLine("deprecated: starting the server without a command; use `system-command-mcp serve`");
    return ["serve", ...argv];
  }
  return argv;
}

/** Prints `system-command-mcp: CODE: message` and exits with the matching code. */
function fail(error: CommandError, usage?: string): never {
  logError(error);
  if (usage) process.stderr.write(`${usage}\n`);
  process.exit(isUsageError(error.code) ? EXIT_USAGE : EXIT_FAILURE);
}

async function main(): Promise<void> {
  let exitCode: number | undefined;
  const program = buildProgram((code) => (exitCode = code));
  const argv = normalizeArgv(process.argv.slice(2));
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
        process.exit(EXIT_OK);
      }
      if (error.code === "commander.help") process.exit(EXIT_OK);
      if (error.code === "commander.unknownCommand" && argv[0] !== undefined) {
        fail(unknownCommandError(argv[0], program), shortUsage(program));
      }
      const code = COMMANDER_CODES[error.code] ?? "INVALID_OPTION";
      const command = program.commands.find((c) => c.name() === argv[0]) ?? program;
      fail(
        new CommandError(code, error.message.replace(/^error: /, "")),
        command.helpInformation(),
      );
    }
    if (error instanceof CommandError) {
      const command = program.commands.find((c) => c.name() === argv[0]) ?? program;
      fail(error, isUsageError(error.code) ? command.helpInformation() : undefined);
    }
    throw error;
  }
  if (exitCode !== undefined) process.exitCode = exitCode;
}

void main();
