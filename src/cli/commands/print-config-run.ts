// `print-config <host>`: the snippet on stdout, where it goes on stderr (SPEC §13, §14).

import type { Command } from "commander";
import { CommandError } from "../../errors.js";
import {
  HOST_NAMES,
  hostConfigFormat,
  hostConfigNotes,
  hostConfigTarget,
  isHostName,
  renderHostConfig,
} from "../../hosts/index.js";
import { resolveSettings } from "../../runtime/config.js";
import { requireRootsForManifest } from "./requirements.js";
import type { CommonOptions } from "../options.js";
import { givenRuntimeFlags, serverLaunch } from "./launch.js";
import { checkSnippetPaths } from "./path-arguments.js";

/** Prints the host's snippet; returns the exit code. */
export function runPrintConfig(host: string, options: CommonOptions, command: Command): number {
  if (!isHostName(host)) {
    throw new CommandError(
      "INVALID_OPTION",
      `unknown host "${host}"; expected one of ${HOST_NAMES.join(", ")}`,
    );
  }
  requireRootsForManifest(options, "print-config");
  // Conflicting flags would stop the server the host starts: refuse them here already.
  resolveSettings(options);
  const paths = checkSnippetPaths(options.manifest, options.root ?? []);
  const launch = serverLaunch(paths, givenRuntimeFlags(command));
  process.stdout.write(renderHostConfig(host, launch));
  if ((options.root ?? []).length === 0) {
    process.stderr.write(
      "system-command-mcp: note: no --root given, so the server's Root is whatever directory " +
        "the host starts it in; pass --root <project dir> to fix it\n",
    );
  }
  // TOML, YAML and shell snippets name their target in a comment; JSON cannot carry one.
  if (hostConfigFormat(host) === "json") {
    process.stderr.write(`system-command-mcp: put this in ${hostConfigTarget(host)}\n`);
  }
  // What the host needs before it offers our tools at all, where the format has no comments.
  for (const note of hostConfigNotes(host)) {
    process.stderr.write(`system-command-mcp: note: ${note}\n`);
  }
  return 0;
}
