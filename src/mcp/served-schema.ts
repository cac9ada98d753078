// The output schemas as tools/list serves them: every top-level field declared with its type, its
// nested objects as plain objects, no descriptions or enums (the §3 subset still: a closed root, nullable fields as oneOf). The full schemas (mcp/output-schemas.ts) type
// the results and document every nested field; serving them whole cost 11.7 KB of the 19.6 KB
// tools/list every model reads at the start of a session, and most of an SDK client's listTools()
// time compiling them (docs/performance.md). A host validates a result against what it was served,
// and a result that fits the full schema fits this one.

type Schema = Record<string, unknown>;

/** A required list longer than this is left out of the served schema. */
const MAX_SERVED_REQUIRED = 4;

/** `schema` with descriptions dropped and every object below the top level left open. */
export function servedOutputSchema(schema: Schema): Schema & { type: "object" } {
  const properties = schema.properties as Record<string, Schema>;
  const served: Schema = {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, field]) => [name, fieldType(field)]),
    ),
  };
  // Only a short required list is served: the environment report's thirteen names cost 170
  // characters and tell a model nothing the field list does not.
  if (Array.isArray(schema.required) && schema.required.length <= MAX_SERVED_REQUIRED) {
    served.required = schema.required;
  }
  served.additionalProperties = false;
  return served as Schema & { type: "object" };
}

/** A field's type without its inner structure: objects and arrays open, nullability kept. */
function fieldType(field: Schema): Schema {
  if (Array.isArray(field.oneOf)) return { oneOf: (field.oneOf as Schema[]).map(fieldType) };
  return { type: field.type };
}
