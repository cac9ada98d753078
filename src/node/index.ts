// Project Node resolution (SPEC §12, §13): per-request selection of node/npm/npx.
//
// Public API, used by the runtime right before spawning node, npm or npx, and by the CLI:
//
//   createNodeSelector(options) → NodeSelector | undefined
//     Startup. Builds the immutable installation set from the installation roots (nothing is
//     executed, no network, no manager), checks enabled roots and defaultVersion. Throws the
//     startup CommandErrors of §12 (PROJECT_NODE_ROOT_UNAVAILABLE, PROJECT_NODE_ROOT_NOT_AUTHORIZED,
//     NODE_RESOLUTION_NODE_REQUIRED, NODE_VARIANTS_UNAVAILABLE, PROJECT_NODE_VERSION_UNAVAILABLE).
//     Returns undefined when neither v2 projectNode nor an enabled v1 nodeResolution is configured.
//
//   selector.variantSet() → VariantSetReport       (system_environment programs.node.variantSet)
//   selector.select(program, cwd) → LaunchPlan | undefined
//     Per request, `cwd` an absolute real path. undefined: run the static program (not
//     node/npm/npx, cwd outside every enabled root, or v1 with no declaration). Otherwise spawn
//     `plan.command` with `[...plan.argsPrefix, ...args]`, prepend `plan.pathPrepend` to that
//     child's PATH only, and report `plan.selection` as programSelection. Throws the per-request
//     CommandErrors of §12, including NODE_VARIANT_CHANGED when the chosen node executable or
//     paired CLI is not the file recorded at startup.
//   selector.warnings / installations / enabledRoots / kind   (for doctor)
//
//   migrateManifestObject(manifest, { roots, staticNodeRealPath?, homeDir?, platform?, env? })
//     migrate-manifest: v1 + nodeResolution → v2 + projectNode. Throws MIGRATION_NOT_APPLICABLE,
//     MIGRATION_PLATFORM_OVERRIDE_UNSUPPORTED, MIGRATION_DEFAULT_VERSION_UNAVAILABLE, ROOT_REQUIRED.
//
// docs/project-node.md explains the rules and the decisions taken where the SPEC is silent.

export { createNodeSelector, isNodeProgram } from "./selector.js";
export type { NodeSelector, NodeSelectorOptions } from "./selector.js";
export { migrateManifestObject } from "./migrate.js";
export type { MigrationOptions } from "./migrate.js";
export type { LaunchPlan, NodeInstallation } from "./types.js";
export {
  NODE_PROGRAMS,
  PACKAGE_JSON_MAX_BYTES,
  VERSION_FILE_MAX_BYTES,
  SOURCE as NODE_SELECTION_SOURCE,
} from "./constants.js";
