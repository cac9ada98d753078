// The Node version declarations of one project directory, as written (SPEC §12).
// Files are read only when asked for, so a walk never touches files it does not need.

import path from "node:path";
import { CommandError, describeValue } from "../errors.js";
import { PACKAGE_JSON_MAX_BYTES, SOURCE, VERSION_FILE_MAX_BYTES } from "./constants.js";
import { invalid, readDeclarationFile } from "./declaration-files.js";
import type { Declaration } from "./types.js";

/** The Node-related fields of one package.json, each absent when not written. */
export interface PackageDeclarations {
  /** `devEngines.runtime` entries named `node` that carry a version (usually one). */
  devEngines: Declaration[];
  volta?: Declaration;
  engines?: Declaration;
}

/** Lazily read declarations of one directory (each file read at most once). */
export class DirectoryDeclarations {
  readonly directory: string;
  private packageJson?: Promise<PackageDeclarations | undefined>;
  private readonly versionFiles = new Map<string, Promise<Declaration | undefined>>();

  constructor(directory: string) {
    this.directory = directory;
  }

  /** The Node fields of this directory's package.json, or undefined when there is none. */
  package(): Promise<PackageDeclarations | undefined> {
    this.packageJson ??= readPackageDeclarations(path.join(this.directory, "package.json"));
    return this.packageJson;
  }

  /** `.nvmrc` of this directory, or undefined when there is none. */
  nvmrc(): Promise<Declaration | undefined> {
    return this.versionFile(SOURCE.nvmrc);
  }

  /** `.node-version` of this directory, or undefined when there is none. */
  nodeVersion(): Promise<Declaration | undefined> {
    return this.versionFile(SOURCE.nodeVersion);
  }

  private versionFile(name: string): Promise<Declaration | undefined> {
    let pending = this.versionFiles.get(name);
    if (pending === undefined) {
      pending = readVersionFile(path.join(this.directory, name), name);
      this.versionFiles.set(name, pending);
    }
    return pending;
  }
}

/** Parses the Node fields of a package.json file. */
async function readPackageDeclarations(file: string): Promise<PackageDeclarations | undefined> {
  const text = await readDeclarationFile(file, PACKAGE_JSON_MAX_BYTES);
  if (text === undefined) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw invalid(file, `expected valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(value)) {
    throw invalid(file, `expected a JSON object, got ${describeValue(value)}`);
  }
  return {
    devEngines: devEnginesNode(value.devEngines, file),
    volta: stringField(value.volta, "node", file, "volta", SOURCE.volta),
    engines: stringField(value.engines, "node", file, "engines", SOURCE.engines),
  };
}

/** The `devEngines.runtime` entries for node (object or array form, npm's devEngines). */
function devEnginesNode(devEngines: unknown, file: string): Declaration[] {
  if (devEngines === undefined) {
    return [];
  }
  if (!isRecord(devEngines)) {
    throw invalid(file, `field devEngines: expected an object, got ${describeValue(devEngines)}`);
  }
  const runtime = devEngines.runtime;
  if (runtime === undefined) {
    return [];
  }
  const entries = Array.isArray(runtime) ? runtime : [runtime];
  const found: Declaration[] = [];
  for (const entry of entries) {
    if (!isRecord(entry)) {
      throw invalid(
        file,
        `field devEngines.runtime: expected an object or an array of objects with name and version, got ${describeValue(entry)}`,
      );
    }
    if (entry.name !== "node" || entry.version === undefined) {
      continue;
    }
    if (typeof entry.version !== "string") {
      throw invalid(
        file,
        `field devEngines.runtime (node) version: expected a string, got ${describeValue(entry.version)}`,
      );
    }
    found.push({ source: SOURCE.devEngines, raw: entry.version.trim(), file });
  }
  return found;
}

/** `<object>.<key>` as a declaration, when the object and the key are written. */
function stringField(
  container: unknown,
  key: string,
  file: string,
  containerName: string,
  source: string,
): Declaration | undefined {
  if (container === undefined) {
    return undefined;
  }
  if (!isRecord(container)) {
    throw invalid(
      file,
      `field ${containerName}: expected an object, got ${describeValue(container)}`,
    );
  }
  const value = container[key];
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== "string") {
    throw invalid(
      file,
      `field ${containerName}.${key}: expected a string, got ${describeValue(value)}`,
    );
  }
  return { source, raw: value.trim(), file };
}

/** `.nvmrc` / `.node-version`: one version on one line; `#` comments and blank lines ignored. */
async function readVersionFile(file: string, source: string): Promise<Declaration | undefined> {
  const text = await readDeclarationFile(file, VERSION_FILE_MAX_BYTES);
  if (text === undefined) {
    return undefined;
  }
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "");
  if (lines.length > 1) {
    throw invalid(file, `expected one version on one line, got ${lines.length} lines`);
  }
  return { source, raw: lines[0] ?? "", file };
}

/** Whether a JSON value is a plain object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** NODE_VERSION_REQUIREMENT_INVALID naming the declaration and what was expected. */
export function requirementInvalid(declaration: Declaration, expected: string): CommandError {
  const shown = declaration.raw === "" ? "an empty value" : JSON.stringify(declaration.raw);
  return new CommandError(
    "NODE_VERSION_REQUIREMENT_INVALID",
    `${declaration.source} in ${declaration.file}: expected ${expected}, got ${shown}.`,
  );
}
