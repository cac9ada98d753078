// Build step: compiles the shipped manifest JSON Schema with ajv into a standalone validator
// (dist/manifest/manifest-schema.validator.cjs), so that a server start validates a manifest
// without loading and compiling ajv. The file carries the schema text it was built from; at run
// time a validator whose text differs from the schema file is ignored and ajv compiles the schema
// instead. (A copy of the text rather than its hash: comparing it needs no crypto module, which a
// `doctor` start would otherwise load for this check alone.)

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemaText = readFileSync(path.join(repo, "system-command-manifest.schema.json"), "utf8");
const { AJV_OPTIONS } = await import(path.join(repo, "dist/manifest/ajv-options.js"));

const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { ...AJV_OPTIONS.code, source: true } });
const validate = ajv.compile(JSON.parse(schemaText));
const code =
  standaloneCode.default(ajv, validate) +
  `\nmodule.exports.schemaText = ${JSON.stringify(schemaText)};\n`;
const out = path.join(repo, "dist/manifest/manifest-schema.validator.cjs");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, code);
