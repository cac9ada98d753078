// The ajv options the manifest schema is compiled with, shared by the runtime compile and the
// build step that precompiles it (scripts/build-manifest-validator.mjs).

/**
 * The schema file is checked against the draft 2020-12 meta-schema by the test suite, not at every
 * start (that doubles compile time); strict mode still rejects unknown keywords while compiling.
 */
export const AJV_OPTIONS = {
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  allErrors: true,
  verbose: true,
  validateSchema: false,
  code: { optimize: false },
} as const;
