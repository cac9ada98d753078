// What PROGRAM_NOT_REGISTERED tells the administrator (SPEC §5, §9, §10): why the name is not
// registered — declared but disabled, declared but not found, not declared at all — and where a
// program gets registered.

import { AUTOMATIC_PROGRAMS } from "../programs/automatic.js";
import type { ProgramCatalog } from "../programs/catalog.js";

/** A requested name the hint may repeat as a manifest key; anything else is shown as <name>. */
const PRINTABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The sentence after "got …": how an administrator makes `name` available. */
export function registrationHint(catalog: ProgramCatalog, name: unknown): string {
  const key = typeof name === "string" && PRINTABLE_NAME.test(name) ? name : "<name>";
  if (catalog.mode === "automatic-discovery") {
    const set = AUTOMATIC_PROGRAMS.map((program) => program.name).join(", ");
    return (
      `Without --manifest (Automatic Discovery Mode) only ${set} are registered, when found on ` +
      `PATH; an administrator registers other programs in a manifest (programs.${key}.candidates, ` +
      '"system-command-mcp init" writes one) and starts the server with --manifest <file> --root <dir>'
    );
  }
  const manifest = catalog.manifestPath ?? "the manifest";
  const detail = catalog.details.find((entry) => entry.name === name);
  if (detail && !detail.enabled) {
    return `It is declared in ${manifest} with "enabled": false; an administrator enables it there and restarts the server`;
  }
  if (detail) {
    return (
      `It is declared in ${manifest}, but none of its candidates (${detail.candidates.join(", ")}) ` +
      `was found at startup; an administrator installs it or fixes programs.${key}.candidates or ` +
      'searchPath ("system-command-mcp doctor" shows where it looked), then restarts the server'
    );
  }
  return (
    `An administrator registers it by adding programs.${key} with "candidates" (e.g. ` +
    `["${key === "<name>" ? "name" : key}"]) to ${manifest} and restarting the server ` +
    '("system-command-mcp doctor" checks the manifest first)'
  );
}
