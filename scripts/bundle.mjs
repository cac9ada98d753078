// Build step (after tsc): bundles the compiled CLI with its dependencies so that a start reads
// three files instead of ~280 (SPEC §16 cold start), compiled from source at every start (no V8
// code cache: SPEC §20.1 item 1):
//
//   dist/cli/bundle/cli.cjs   the CLI and everything it uses except the MCP SDK (CommonJS script)
//   dist/cli/bundle/sdk.cjs   the MCP SDK (and zod, ajv… that it brings), loaded only by `serve`
//                             — `doctor`, `init`, `print-config` never read it (SPEC §13)
//   dist/cli/bundle/validator.cjs  the precompiled manifest validator, loaded when a manifest is
//                             validated
//   dist/cli/bundle/tool-validators.cjs  the precompiled tool-argument validators, loaded on the
//                             first tools/call
//   dist/cli/bundle/re2.cjs, semver.cjs  re2js (system_output grep, wait_for patterns) and semver
//                             (Project Node selection), each read when it is first imported
//   dist/cli/main.js          the entry: runs cli.cjs through src/cli/bundle-loader.ts
//   dist/THIRD_PARTY_LICENSES the licence texts of every bundled package (shipped, see `files`)
//
// The unbundled tsc output stays in dist/ (tests import it). Lazily imported parts of the CLI
// (serve, exec, doctor, …) stay lazily *evaluated* inside cli.cjs. ajv is left to Node's resolver:
// it is only required on slow paths (a schema file changed since the build, or explaining an
// invalid manifest), next to the precompiled validator of dist/manifest/.

import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(repo, "dist");
const cliDir = path.join(dist, "cli");
const bundleDir = path.join(cliDir, "bundle");
const entry = path.join(cliDir, "main.js");
const mainSource = path.join(cliDir, "main.source.js");

/** The SDK modules the CLI imports, each exposed by sdk.cjs under a key. */
const SDK_MODULES = {
  "@modelcontextprotocol/sdk/server/index.js": "serverIndex",
  "@modelcontextprotocol/sdk/server/stdio.js": "serverStdio",
  "@modelcontextprotocol/sdk/types.js": "types",
};

// Outputs of an earlier build (chunks of the ESM bundle, the entry's map) would only mislead.
rmSync(path.join(cliDir, "chunks"), { recursive: true, force: true });
rmSync(bundleDir, { recursive: true, force: true });
rmSync(`${entry}.map`, { force: true });
// tsc wrote the CLI's own main.js; keep it under another name as the bundle's entry point (its
// shebang line blanked: the bundle is a script body, not a file Node starts).
writeFileSync(mainSource, readFileSync(entry, "utf8").replace(/^#!.*/, ""));

/**
 * Packages that a start does not need: each is its own bundle, read and compiled the first time
 * the code that imports it runs (every import of them sits behind a dynamic import). Kept in
 * cli.cjs they were a third of what every start parsed (re2js alone 0.30 MB; SPEC §16 cold start,
 * docs/performance.md).
 */
const LAZY_PACKAGES = { re2js: "re2", semver: "semver" };

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: false,
  logLevel: "warning",
  metafile: true,
  legalComments: "none",
  // Every start compiles the bundles from source (no code cache), so their size is start time:
  // without comments and indentation they are ~30 % smaller and ASCII-only (V8 reads and scans a
  // one-byte string). Names are kept (stack traces name functions); line numbers are not useful
  // in the bundles, the unbundled tsc output in dist/ has them.
  minifyWhitespace: true,
};

/**
 * An esbuild plugin: imports matching `filter` become reads of another bundle through the loader.
 * `exportsOf(path)` is the expression of what such an import gets, or undefined: a build error
 * that says `unknown` (what to do about the path).
 */
function throughLoader(name, filter, exportsOf, unknown = "not expected here") {
  return {
    name,
    setup(b) {
      b.onResolve({ filter }, (args) => {
        const contents = exportsOf(args.path);
        if (contents === undefined) {
          return {
            errors: [{ text: `${args.path}: add it to SDK_MODULES in scripts/bundle.mjs` }],
          };
        }
        return { path: args.path, namespace: name, pluginData: contents };
      });
      b.onLoad({ filter: /.*/, namespace: name }, (args) => ({
        contents: `module.exports = ${args.pluginData};`,
        loader: "js",
      }));
    },
  };
}

/** Imports of the SDK inside cli.cjs become reads of sdk.cjs through the loader. */
const sdkThroughLoader = throughLoader(
  "sdk-through-loader",
  /^@modelcontextprotocol\/sdk\//,
  (p) =>
    SDK_MODULES[p] === undefined
      ? undefined
      : `__scmLoad("sdk")[${JSON.stringify(SDK_MODULES[p])}]`,
  "add it to SDK_MODULES in scripts/bundle.mjs",
);

/**
 * commander requires child_process at load for one feature we never use (executable
 * subcommands); loading it costs every CLI start ~1.5 ms (SPEC §16 doctor). In the bundle the
 * module is required when commander first spawns, which this CLI never does.
 */
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyCommanderChildProcess = {
  name: "lazy-commander-child-process",
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes(COMMANDER_CHILD_PROCESS) || /childProcess\.(?!spawn\()/.test(source)) {
        return {
          errors: [
            {
              text: `${args.path}: commander's use of child_process changed; update lazyCommanderChildProcess in scripts/bundle.mjs`,
            },
          ],
        };
      }
      const lazy =
        "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(COMMANDER_CHILD_PROCESS, lazy), loader: "js" };
    });
  },
};

/** Imports of a lazy package become a read of its own bundle through the loader. */
const lazyPackagesThroughLoader = throughLoader(
  "lazy-packages-through-loader",
  new RegExp(`^(${Object.keys(LAZY_PACKAGES).join("|")})$`),
  (p) => `__scmLoad(${JSON.stringify(LAZY_PACKAGES[p])})`,
);

const cli = await build({
  ...common,
  entryPoints: [mainSource],
  outfile: path.join(bundleDir, "cli.cjs"),
  external: ["ajv", "ajv/*"],
  define: { "import.meta.url": "__scmUrl" },
  plugins: [sdkThroughLoader, lazyPackagesThroughLoader, lazyCommanderChildProcess],
});

const lazyPackages = [];
for (const [pkg, name] of Object.entries(LAZY_PACKAGES)) {
  lazyPackages.push(
    await build({
      ...common,
      stdin: {
        contents: `module.exports = require(${JSON.stringify(pkg)});`,
        resolveDir: repo,
        sourcefile: `${name}-entry.js`,
      },
      outfile: path.join(bundleDir, `${name}.cjs`),
    }),
  );
}

const sdk = await build({
  ...common,
  stdin: {
    contents: Object.entries(SDK_MODULES)
      .map(([module, key]) => `export * as ${key} from ${JSON.stringify(module)};`)
      .join("\n"),
    resolveDir: repo,
    sourcefile: "sdk-entry.js",
  },
  outfile: path.join(bundleDir, "sdk.cjs"),
});

// The precompiled manifest validator (scripts/build-manifest-validator.mjs) with the ajv runtime
// helper it requires: loaded through the same loader (one file read, no module resolution for the
// ajv runtime helper it needs).
// Generated validator code (ajv standalone): fully minified, names too — nobody reads its stack
// traces, and a static doctor parses it on every run.
const validator = await build({
  ...common,
  minify: true,
  entryPoints: [path.join(dist, "manifest", "manifest-schema.validator.cjs")],
  outfile: path.join(bundleDir, "validator.cjs"),
});

// The precompiled tool-argument validators (scripts/build-tool-validators.mjs), read through the
// loader on the first tools/call: no module resolution then, and shipped with the bundles (the
// package does not ship dist/mcp/, so an installed server would otherwise compile with ajv).
const toolValidators = await build({
  ...common,
  minify: true,
  entryPoints: [path.join(dist, "mcp", "tool-validators.cjs")],
  outfile: path.join(bundleDir, "tool-validators.cjs"),
});

await build({
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  stdin: {
    contents: [
      `import { BundleLoader } from "./bundle-loader.js";`,
      `import { holdYoungGeneration } from "./young-generation.js";`,
      `holdYoungGeneration(() => require("node:v8"));`,
      `new BundleLoader(require("node:path").join(__dirname, "bundle")).load("cli");`,
    ].join("\n"),
    resolveDir: cliDir,
    sourcefile: "main-entry.js",
  },
  banner: { js: "#!/usr/bin/env node" },
  outfile: entry,
  allowOverwrite: true,
});
chmodSync(entry, 0o755);
// The entry is a CommonJS script (a start then never sets up Node's ES module loader: ~3 ms of a
// `doctor` run, SPEC §16); the package is "type": "module", so dist/cli says otherwise for the
// files directly in it. Nothing starts the other tsc outputs of dist/cli: they are bundled.
writeFileSync(path.join(cliDir, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");

writeFileSync(
  path.join(dist, "THIRD_PARTY_LICENSES"),
  thirdPartyLicenses([cli, sdk, validator, toolValidators, ...lazyPackages]),
);

/** The licence texts of every package with code in the bundles, by package name. */
function thirdPartyLicenses(results) {
  const packages = new Map();
  for (const result of results) {
    for (const input of Object.keys(result.metafile.inputs)) {
      const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (!match) continue;
      const dir = input.slice(0, match.index + match[0].length);
      packages.set(match[1], path.resolve(repo, dir));
    }
  }
  const sections = [...packages.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, dir]) => {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      const licenseFile = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"]
        .map((file) => path.join(dir, file))
        .find((file) => existsSync(file));
      const text = licenseFile
        ? readFileSync(licenseFile, "utf8").trim()
        : `(no licence file in the package; package.json says: ${pkg.license ?? "unknown"})`;
      return `${name}@${pkg.version} — ${pkg.license ?? "unknown"}\n\n${text}\n`;
    });
  return (
    "Third-party software bundled into dist/cli/bundle/ of system-command-mcp.\n" +
    "Each package below keeps its own licence.\n\n" +
    sections.join(`\n${"-".repeat(72)}\n\n`)
  );
}
