// The TypeScript type a tool input schema describes, derived from the schema itself (declared
// `as const`), so that a request type can never drift from the schema that validates it.
// Covers the subset the tool schemas use: object/properties/required, string (with enum),
// integer, number, boolean and array/items.

/** The value type of one schema. */
export type FromSchema<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly type: "string" }
    ? string
    : S extends { readonly type: "integer" | "number" }
      ? number
      : S extends { readonly type: "boolean" }
        ? boolean
        : S extends { readonly type: "array"; readonly items: infer I }
          ? FromSchema<I>[]
          : S extends { readonly type: "object"; readonly properties: infer P }
            ? ObjectFrom<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
            : unknown;

/** Required keys as listed in `required`, every other property optional. */
type ObjectFrom<P, Required> = Flatten<
  { -readonly [K in keyof P & Required]: FromSchema<P[K]> } & {
    -readonly [K in Exclude<keyof P, Required>]?: FromSchema<P[K]>;
  }
>;

type Flatten<T> = { [K in keyof T]: T[K] };
