/** A zod type no JSON value satisfies: how it is written, and the JSON form to use on each side. */
export interface JsonlessKind {
  readonly written: string;
  readonly input: string;
  readonly output: string;
}

/**
 * The zod types no JSON value satisfies, by `def.type` (plus BigInt literals). zod's JSON Schema converter
 * calls them unrepresentable and, with `unrepresentable: "any"`, writes `{}` ("anything") for them.
 * Not here: `z.undefined()` / `z.void()` (an absent key satisfies them), `z.custom()` and standalone
 * transforms (they may well accept JSON values), `z.file()` (it has a JSON Schema form).
 */
export const JSONLESS: Readonly<Record<string, JsonlessKind>> = {
  date: {
    written: "z.date()",
    input: "take an ISO string: z.iso.datetime() (a string), or z.coerce.date() (a Date made from it)",
    output: "return date.toISOString() and declare z.iso.datetime()",
  },
  bigint: {
    written: "z.bigint()",
    input: "use z.number() or z.string() (z.coerce.bigint() makes a BigInt from either)",
    output: "return a number or a string: z.number() or z.string()",
  },
  map: {
    written: "z.map()",
    input: "use z.record(keys, values): a JSON object",
    output: "return a plain object: z.record(keys, values)",
  },
  set: {
    written: "z.set()",
    input: "use z.array(items): a JSON array",
    output: "return an array: z.array(items)",
  },
  symbol: {
    written: "z.symbol()",
    input: "use z.string() or z.enum([...])",
    output: "return a string: z.string() or z.enum([...])",
  },
  function: {
    written: "z.function()",
    input: "a plan's arguments are JSON data: take a name (z.enum([...])) and pick the function in run",
    output: "return JSON data, not a function",
  },
  nan: {
    written: "z.nan()",
    input: "use z.number() (JSON has no NaN)",
    output: "return a number (JSON has no NaN): z.number()",
  },
  bigintLiteral: {
    written: "z.literal(…n)",
    input: 'use a number or string literal: z.literal(5) or z.literal("5")',
    output: 'return a number or a string: z.literal(5) or z.literal("5")',
  },
};

/** The parts of a zod schema's definition read here (all untrusted: any zod 4 version). */
export interface ZodDefinition {
  readonly type?: unknown;
  readonly coerce?: unknown;
  readonly values?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
  readonly innerType?: unknown;
  readonly getter?: unknown;
  readonly options?: unknown;
  readonly shape?: unknown;
  readonly catchall?: unknown;
  readonly element?: unknown;
  readonly keyType?: unknown;
  readonly valueType?: unknown;
  readonly left?: unknown;
  readonly right?: unknown;
  readonly items?: unknown;
  readonly rest?: unknown;
}

/** The definition (`_zod.def`) of a zod schema, or an empty one. */
export function definitionOf(schema: unknown): ZodDefinition {
  const internals = (schema as { _zod?: { def?: ZodDefinition } } | null)?._zod;
  return internals?.def ?? {};
}

/** The kind of a jsonless zod type, or undefined (coerced types take any input: not jsonless). */
export function jsonlessKind(definition: ZodDefinition): string | undefined {
  const type = definition.type;
  if (typeof type !== "string" || definition.coerce === true) return undefined;
  if (type === "literal")
    return Array.isArray(definition.values) && definition.values.some((value) => typeof value === "bigint")
      ? "bigintLiteral"
      : undefined;
  return Object.hasOwn(JSONLESS, type) ? type : undefined;
}
