// Build step: compiles every tool's input schema with ajv into one standalone module
// (dist/mcp/tool-validators.cjs), so that the first tools/call of a server neither loads ajv nor
// compiles a schema (issue 24: Ajv compiled its draft-07 meta-schema and each tool's schema on the
// first call, ~40 ms). system_exec's `program` enum is the server's registered programs, known
// only at run time: it is compiled without the enum, and src/mcp/precompiled-validators.ts checks
// the enum from the served schema itself. The module carries the text of each schema it was built
// from; at run time a schema whose text differs is compiled by ajv instead (same rule as the
// manifest validator, scripts/build-manifest-validator.mjs).

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import AjvModule from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";

const Ajv = AjvModule.default ?? AjvModule;
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { toolDefinitions } = await import(path.join(repo, "dist/mcp/tools.js"));
const { ARGUMENT_AJV_OPTIONS, schemaWithoutProgramEnum } = await import(
  path.join(repo, "dist/mcp/precompiled-validators.js")
);

const ajv = new Ajv({ ...ARGUMENT_AJV_OPTIONS, code: { source: true } });
const exports = {};
const schemaTexts = {};
for (const tool of toolDefinitions([])) {
  const schema = schemaWithoutProgramEnum(tool.inputSchema);
  ajv.addSchema(schema, tool.name);
  exports[tool.name] = tool.name;
  schemaTexts[tool.name] = JSON.stringify(schema);
}
const code =
  standaloneCode.default(ajv, exports) +
  `\nmodule.exports.schemaTexts = ${JSON.stringify(schemaTexts)};\n`;
const out = path.join(repo, "dist/mcp/tool-validators.cjs");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, code);
