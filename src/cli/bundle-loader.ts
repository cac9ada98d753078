// Runs the bundled CLI (dist/cli/bundle/*.cjs, written by scripts/bundle.mjs): each bundle is a
// CommonJS body compiled as a vm.Script from its source at every start, with the loader of the
// other bundles as a parameter of its wrapper. There is no code cache (SPEC §20.1 item 1): V8
// accepts cached bytecode after checking only the source length, its flags and its version, so a
// cache file any same-user program can write would be code that runs outside every sandbox.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

/** The wrapper the bundle runs in: CommonJS's, plus the loader of the other bundles. */
const WRAPPER_PARAMS = [
  "exports",
  "require",
  "module",
  "__filename",
  "__dirname",
  "__scmLoad",
  "__scmUrl",
] as const;

type Loaded = Record<string, unknown>;

/** Loads bundles by name from one directory, each evaluated once. */
export class BundleLoader {
  private readonly loaded = new Map<string, Loaded>();

  constructor(private readonly bundleDir: string) {}

  /** The exports of bundle `name` (dist/cli/bundle/<name>.cjs), evaluating it on first use. */
  load(name: string): Loaded {
    const done = this.loaded.get(name);
    if (done) return done;
    const file = path.join(this.bundleDir, `${name}.cjs`);
    const source = readFileSync(file, "utf8");
    const script = new vm.Script(`(function (${WRAPPER_PARAMS.join(", ")}) {${source}\n})`, {
      filename: file,
    });
    const module = { exports: {} as Loaded };
    this.loaded.set(name, module.exports);
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run(
      module.exports,
      createRequire(file),
      module,
      file,
      path.dirname(file),
      (other: string) => this.load(other),
      pathToFileURL(file).href,
    );
    this.loaded.set(name, module.exports);
    return module.exports;
  }
}
