// The effective sandbox policy of each program (SPEC §20): which `sandbox` object applies, with its
// defaults filled in, `~/` expanded, and `writablePaths` checked to exist at startup.

import { realpathSync } from "node:fs";
import path from "node:path";
import { CommandError, errnoCode } from "../errors.js";
import { escapePointerSegment } from "../manifest/schema-errors.js";
import { ownValue } from "../manifest/platform-merge.js";
import type { Manifest } from "../manifest/types.js";
import { DEFAULT_HIDDEN_PATHS, DEFAULT_NETWORK, DEFAULT_PROTECTED_PATHS } from "./constants.js";
import type { SandboxInput, SandboxPolicy } from "./types.js";

/** Which `sandbox` object applies to a program, and the JSON path it was written at. */
export interface PolicySource {
  sandbox: SandboxInput | null | undefined;
  at: string;
}

/** `/a/b` with each segment escaped. */
function pointer(...segments: string[]): string {
  return segments.map((segment) => `/${escapePointerSegment(segment)}`).join("");
}

/**
 * The `sandbox` that applies to one program on `platform`: the program's own (platform override
 * first, then base) replaces the default (platform `sandbox` first, then the top level) whole.
 */
export function policySource(
  manifest: Manifest,
  platform: NodeJS.Platform,
  name: string,
): PolicySource {
  const over = ownValue(manifest.platforms, platform);
  const overProgram = ownValue(over?.programs, name);
  if (overProgram !== undefined && Object.hasOwn(overProgram, "sandbox")) {
    const at = pointer("platforms", platform, "programs", name, "sandbox");
    return { sandbox: overProgram.sandbox, at };
  }
  const base = ownValue(manifest.programs, name);
  if (base !== undefined && Object.hasOwn(base, "sandbox")) {
    return { sandbox: base.sandbox, at: pointer("programs", name, "sandbox") };
  }
  if (over !== undefined && Object.hasOwn(over, "sandbox")) {
    return { sandbox: over.sandbox, at: pointer("platforms", platform, "sandbox") };
  }
  return { sandbox: manifest.sandbox, at: "/sandbox" };
}

/** Expands a leading `~/` with the home directory. */
export function expandHomePath(value: string, homeDir: string): string {
  return value.startsWith("~/") ? path.join(homeDir, value.slice(2)) : path.resolve(value);
}

/** The real path of a writable path, or INVALID_MANIFEST naming the field and the path. */
function existingWritablePath(value: string, at: string, homeDir: string): string {
  const expanded = expandHomePath(value, homeDir);
  try {
    return realpathSync(expanded);
  } catch (error) {
    throw new CommandError(
      "INVALID_MANIFEST",
      `${at}: expected an existing path for writablePaths, got "${expanded}" (${errnoCode(error)}); ` +
        `create it or remove it from the manifest`,
    );
  }
}

/** The effective policy of a `sandbox` object, or null when the program runs unconfined. */
export function effectiveSandboxPolicy(
  source: PolicySource,
  homeDir: string,
): SandboxPolicy | null {
  const sandbox = source.sandbox;
  if (sandbox === undefined || sandbox === null) return null;
  const writablePaths = (sandbox.writablePaths ?? []).map((value, index) =>
    existingWritablePath(value, `${source.at}/writablePaths/${index}`, homeDir),
  );
  const hidden = sandbox.hiddenPaths ?? DEFAULT_HIDDEN_PATHS;
  return {
    filesystem: sandbox.filesystem,
    writablePaths: [...new Set(writablePaths)],
    hiddenPaths: [...new Set(hidden.map((value) => expandHomePath(value, homeDir)))],
    protectedPaths: [...(sandbox.protectedPaths ?? DEFAULT_PROTECTED_PATHS)],
    network: sandbox.network ?? DEFAULT_NETWORK,
  };
}
