// A module the build ships as a bundle of its own (scripts/bundle.mjs): inside the bundled CLI
// it is read through the entry's loader (`__scmLoad`, a parameter of every bundle's wrapper in
// dist/cli/main.js), elsewhere (dist/ run directly, tests) through Node's require of the build's
// unbundled file.

import { createRequire } from "node:module";

/** The bundle loader of dist/cli/main.js: a parameter of the bundle's wrapper, absent elsewhere. */
declare const __scmLoad: ((name: string) => unknown) | undefined;

const require = createRequire(import.meta.url);

/** The exports of bundle `bundle`, or of `unbundledFile` outside the bundled CLI. */
export function loadBuildModule(bundle: string, unbundledFile: string): unknown {
  return typeof __scmLoad === "function" ? __scmLoad(bundle) : require(unbundledFile);
}
