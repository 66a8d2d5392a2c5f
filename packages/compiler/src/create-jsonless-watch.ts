import { ObeliskError } from "@obelisk/core";

/** Which side of a tool a schema describes: what a plan gives it, or what it returns. */
export type SchemaSide = "input" | "output";

/** A zod type no JSON value satisfies: how it is written, and the JSON form to use on each side. */
interface JsonlessKind {
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
const JSONLESS: Readonly<Record<string, JsonlessKind>> = {
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

/** What zod's `override` hook is given for each schema it converted (zod 4.0 and later). */
interface OverrideContext {
  readonly zodSchema: unknown;
  readonly path?: readonly (string | number)[];
}

/** The parts of a zod schema's definition read here (all untrusted: any zod 4 version). */
interface ZodDefinition {
  readonly type?: unknown;
  readonly coerce?: unknown;
  readonly values?: unknown;
  readonly in?: { readonly _zod?: { readonly def?: { readonly type?: unknown } } };
}

function definitionOf(schema: unknown): ZodDefinition {
  const internals = (schema as { _zod?: { def?: ZodDefinition } } | null)?._zod;
  return internals?.def ?? {};
}

/** The kind of a jsonless zod type, or undefined (coerced types take any input: not jsonless). */
function jsonlessKind(definition: ZodDefinition): string | undefined {
  const type = definition.type;
  if (typeof type !== "string" || definition.coerce === true) return undefined;
  if (type === "literal")
    return Array.isArray(definition.values) && definition.values.some((value) => typeof value === "bigint")
      ? "bigintLiteral"
      : undefined;
  return Object.hasOwn(JSONLESS, type) ? type : undefined;
}

/**
 * True for a schema whose inner schemas may be jsonless and still work: `z.preprocess(fn, inner)` (a pipe
 * from a transform: `fn` turns the JSON value into what `inner` wants) and `.catch(value)` (any value passes).
 */
function excusesInner(definition: ZodDefinition): boolean {
  if (definition.type === "catch") return true;
  return definition.type === "pipe" && definition.in?._zod?.def?.type === "transform";
}

/**
 * The field a JSON Schema path (`["properties", "list", "items", "properties", "at"]`) describes, as a
 * person writes it (`list[].at`); union members and `$defs` names are skipped.
 */
function fieldPath(path: readonly (string | number)[]): string {
  let text = "";
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    if (segment === "properties") text += `${text === "" ? "" : "."}${String(path[++index])}`;
    else if (segment === "items") text += "[]";
    else if (segment === "prefixItems") text += `[${String(path[++index])}]`;
    else if (segment === "additionalProperties") text += text === "" ? "*" : ".*";
    else if (segment === "propertyNames") text += " (its keys)";
    else if (segment === "anyOf" || segment === "oneOf" || segment === "allOf" || segment === "$defs")
      index++;
  }
  return text;
}

/** True when `prefix` is a prefix of `path` (or equal to it). */
function startsWith(path: readonly (string | number)[], prefix: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment);
}

/** A conversion's watch for jsonless zod types: its `override` hook, then `refuse` after the conversion. */
export interface JsonlessWatch {
  /** zod's `override` option: sees every schema converted. */
  readonly override: (context: OverrideContext) => void;
  /** Throws USAGE naming every jsonless field met, with a hint per kind; nothing when there is none. */
  refuse(what: string, side: SchemaSide): void;
}

/**
 * Watches a zod → JSON Schema conversion for zod types no JSON value satisfies (`z.date()`, `z.bigint()`,
 * `z.map()`, …). A tool's arguments come from a JSON plan and its result is stored as JSON, so such a tool
 * could never run: the plan schema said "anything" there, validation passed and every call failed.
 * `coerce` versions, and types under `z.preprocess` or `.catch`, take JSON values and are accepted.
 */
export function createJsonlessWatch(): JsonlessWatch {
  const found: { path: readonly (string | number)[]; kind: string }[] = [];
  const excused: (readonly (string | number)[])[] = [];
  return {
    override(context) {
      const definition = definitionOf(context.zodSchema);
      const path = Array.isArray(context.path) ? context.path : [];
      if (excusesInner(definition)) excused.push(path);
      const kind = jsonlessKind(definition);
      if (kind !== undefined) found.push({ path, kind });
    },
    refuse(what, side) {
      const offenders = found.filter(({ path }) => !excused.some((prefix) => startsWith(path, prefix)));
      if (offenders.length === 0) return;
      // zod calls the hook inner schemas first: plan order reads better.
      offenders.reverse();
      const fields = offenders.map(({ path, kind }) => {
        const field = fieldPath(path);
        const written = (JSONLESS[kind] as JsonlessKind).written;
        return field === "" ? `the schema is ${written}` : `${field} is ${written}`;
      });
      const kinds = [...new Set(offenders.map(({ kind }) => kind))];
      const hints = kinds.map((kind) => {
        const entry = JSONLESS[kind] as JsonlessKind;
        return kinds.length === 1 ? entry[side] : `${entry.written}: ${entry[side]}`;
      });
      const why =
        side === "input"
          ? "a plan's values are JSON, so every call would fail PARAM_INVALID"
          : "a tool's result is stored as JSON, so every call would fail";
      const message = `${what}: ${fields.join(", ")}, which no JSON value can satisfy: ${why}`;
      throw new ObeliskError("USAGE", message, { hint: hints.join("; ") });
    },
  };
}
