// Compile-time comparison of a result type the runtime declares with the type its tool's output
// schema describes (`FromSchema<>`), in both directions: a field, a value or an optional field the
// schema does not allow, and a field the schema declares that the runtime type never has. Each
// disagreement is a message naming its path; `NoDrift<>` turns any message into a compile error
// (TS2344) that shows it. Objects the schema leaves open (no `properties`) are not looked into.

type Scalar = string | number | boolean | bigint | symbol | null | undefined;
type List = readonly unknown[];

/**
 * The disagreements between runtime type `R` and schema-derived type `D`, as `{ drift: messages }`
 * (`drift: never` when none). The messages sit in a property, written `& string`, so that
 * TypeScript's error lists every one: a bare union it shows by the name of the helper that built it.
 */
export type ResultDrift<R, D, Path extends string> = { drift: Drift<R, D, Path> & string };

/** Fails to compile (TS2344), listing the messages, unless the report has no drift. */
export type NoDrift<Report extends { drift: never }> = Report;

type Drift<R, D, Path extends string> = unknown extends D
  ? never
  : | ScalarDrift<Extract<R, Scalar>, Extract<D, Scalar>, Path>
    | ListDrift<Extract<R, List>, Extract<D, List>, Path>
    | ObjectDrift<Exclude<R, Scalar | List>, Exclude<D, Scalar | List>, Path>;

type ScalarDrift<RS, DS, Path extends string> = [Exclude<RS, DS>] extends [never]
  ? never
  : `${Path}: the output schema does not allow ${Describe<Exclude<RS, DS>>}`;

/** A scalar type as a message shows it. */
type Describe<T> = T extends string
  ? string extends T
    ? "string"
    : `"${T}"`
  : T extends number
    ? number extends T
      ? "number"
      : `${T}`
    : T extends boolean | null | undefined
      ? `${T}`
      : "a bigint or symbol";

type ListDrift<RL extends List, DL extends List, Path extends string> = [RL] extends [never]
  ? never
  : [DL] extends [never]
    ? `${Path}: an array, where the output schema has none`
    : Drift<Exclude<RL[number], undefined>, DL[number], `${Path}[]`>;

type ObjectDrift<RO, DO, Path extends string> = [RO] extends [never]
  ? never
  : [DO] extends [never]
    ? `${Path}: an object, where the output schema has none`
    : IsOpen<DO> extends true
      ? never
      : | `${Path}.${Exclude<KeysOf<RO>, keyof DO> & string}: not in the output schema`
        | `${Path}.${Exclude<keyof DO, KeysOf<RO>> & string}: in the output schema, not in the type`
        | RequiredGap<RO, DO, Path>
        | FieldsDrift<RO, DO, keyof DO & KeysOf<RO> & string, Path>;

/** An object whose fields the schema does not list (any object, or a record). */
type IsOpen<D> = [keyof D] extends [never] ? true : string extends keyof D ? true : false;

/** The keys of every variant of `R`. */
type KeysOf<R> = R extends unknown ? keyof R : never;

/** The type of `K` in the variants of `R` that have it. */
type ValueAt<R, K> = R extends unknown ? (K extends keyof R ? R[K] : never) : never;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** Per variant of `RO`: fields the schema requires that the variant may leave out. */
type RequiredGap<RO, DO, Path extends string> = RO extends unknown
  ? `${Path}.${Exclude<RequiredKeys<DO>, RequiredKeys<RO>> & string}: required by the output schema, optional or missing in the type`
  : never;

type FieldsDrift<RO, DO, Keys extends keyof DO & string, Path extends string> = {
  [K in Keys]: Drift<Exclude<ValueAt<RO, K>, undefined>, Exclude<DO[K], undefined>, `${Path}.${K}`>;
}[Keys];
