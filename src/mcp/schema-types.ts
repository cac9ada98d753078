// The TypeScript type a tool schema describes, derived from the schema itself (declared
// `as const`), so that a request or result type can never drift from the schema that checks it.
// Covers the subset the tool schemas use: enum (of strings or numbers), oneOf/anyOf, `type` as
// one name or a list of names (`["string", "null"]`), string, integer, number, boolean, null,
// array/items, and object with properties/required. An object with `properties` is read as
// closed (every one in this project says `additionalProperties: false`); one without is any
// object, or a record when `additionalProperties` is a schema.

/** The value type of one schema. */
export type FromSchema<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly oneOf: readonly (infer O)[] }
    ? FromSchema<O>
    : S extends { readonly anyOf: readonly (infer O)[] }
      ? FromSchema<O>
      : S extends { readonly type: infer T }
        ? OfType<T extends readonly (infer N)[] ? N : T, S>
        : unknown;

/** The values of the type name `N` (distributes over a union of names) as schema `S` narrows it. */
type OfType<N, S> = N extends "string"
  ? string
  : N extends "integer" | "number"
    ? number
    : N extends "boolean"
      ? boolean
      : N extends "null"
        ? null
        : N extends "array"
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : N extends "object"
            ? ObjectOf<S>
            : unknown;

type ObjectOf<S> = S extends { readonly properties: infer P }
  ? ObjectFrom<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
  : S extends { readonly additionalProperties: infer A extends object }
    ? { [key: string]: FromSchema<A> }
    : object;

/** Required keys as listed in `required`, every other property optional. */
type ObjectFrom<P, Required> = Flatten<
  { -readonly [K in keyof P & Required]: FromSchema<P[K]> } & {
    -readonly [K in Exclude<keyof P, Required>]?: FromSchema<P[K]>;
  }
>;

type Flatten<T> = { [K in keyof T]: T[K] };
