// Build step: compiles the shipped manifest JSON Schema with ajv into a standalone validator
// (dist/manifest/manifest-schema.validator.cjs), so that a server start validates a manifest
// without loading and compiling ajv. The file carries the schema's hash; at run time a validator
// whose hash does not match the schema file is ignored and ajv compiles the schema instead.

import { createHash } from "node:crypto";
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
const hash = createHash("sha256").update(schemaText).digest("hex");
const code =
  standaloneCode.default(ajv, validate) +
  `\nmodule.exports.schemaHash = ${JSON.stringify(hash)};\n`;
const out = path.join(repo, "dist/manifest/manifest-schema.validator.cjs");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, code);
