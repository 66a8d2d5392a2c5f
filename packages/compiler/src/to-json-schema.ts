import { createRequire } from "node:module";
import type { JsonObject } from "@obelisk/core";
import { ObeliskError } from "@obelisk/core";
import type { z } from "zod";
import {
  createJsonlessWatch,
  fieldPath,
  type JsonlessWatch,
  type SchemaSide,
} from "./create-jsonless-watch.js";
import { findJsonlessUses } from "./find-jsonless-uses.js";
import { definitionOf } from "./jsonless-kinds.js";
import type { SchemaInput } from "./tool-definition.js";
import { widenLenientSchema } from "./widen-lenient-schema.js";

/**
 * zod, for schemas without their own `toJSONSchema` (zod before 4.1): loaded on the first such schema, as
 * importing it costs ~140 ms, which a process whose tools use JSON Schema (or a CLI command that only
 * reads the store) need not pay. Its CommonJS build converts schemas made with its ES module build (same
 * global registry: descriptions and metadata are kept).
 */
let zod: typeof z | undefined;
const loadZod = (): typeof z => {
  zod ??= (createRequire(import.meta.url)("zod") as { z: typeof z }).z;
  return zod;
};

/**
 * The options of a conversion: `io: "input"`, and `unrepresentable: "any"` with an `override` hook that
 * notes the types no JSON value satisfies (refused after the conversion where a value must have one,
 * naming each field; elsewhere written as `{ not: {} }`) and widens what zod's parse accepts more of than
 * its converted inner type (`z.coerce.*`, `z.preprocess`, `.catch`: `widen-lenient-schema.ts`). The hook,
 * not an `unrepresentable` function: that form is recent, and a schema is converted by its own zod.
 */
interface Conversion {
  readonly io: "input";
  readonly unrepresentable: "any";
  readonly override: JsonlessWatch["override"];
}

/** Converts with the schema's own zod (its `toJSONSchema` method) when it has one, else with ours. */
function zodToJsonSchema(schema: z.ZodType, conversion: Conversion): JsonObject {
  const own = (schema as { toJSONSchema?: (options: Conversion) => unknown }).toJSONSchema;
  if (typeof own === "function") return own.call(schema, conversion) as JsonObject;
  return loadZod().toJSONSchema(schema, conversion) as JsonObject;
}

/** True when `value` is a zod v4 schema (it carries the `_zod` internals). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * True when `value` looks like a zod 3 schema: `_def` and a `safeParse` method, no `_zod` (zod 4's
 * internals). A JSON Schema holds no functions, so one with a `_def` key is not mistaken for it.
 */
function isZod3Schema(value: Record<string, unknown>): boolean {
  return "_def" in value && typeof value.safeParse === "function" && !("_zod" in value);
}

/** True for a plain (non-array, non-null) object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Options of {@link toJsonSchema}'s public form. */
export interface ToJsonSchemaOptions {
  /** What the schema is, as messages name it (`"stateSchema"`, `"my tool's input"`). Default `"schema"`. */
  readonly what?: string;
  /**
   * What the schema describes, for the hints of a refused JSON-less type: a value given (`"input"`: take an
   * ISO string) or a value produced and stored (`"output"`: return `date.toISOString()`). Default `"input"`.
   */
  readonly side?: SchemaSide;
  /**
   * The value will be checked against the JSON Schema alone, never parsed by zod (a thread's state schema):
   * zod types whose check JSON Schema cannot carry — `z.custom()`, `z.instanceof()`, `z.promise()`, which
   * convert to "anything" while their TypeScript type claims more — are refused with `USAGE` naming each
   * field. Default false (a tool's input is parsed by zod too).
   */
  readonly jsonSchemaOnly?: boolean;
}

/** zod types (by `def.type`) whose check is code: JSON Schema writes them as "anything". */
const CHECKED_BY_CODE: Readonly<Record<string, string>> = {
  custom: "z.custom() or z.instanceof()",
  promise: "z.promise()",
};

/**
 * Converts a zod v4 schema to JSON Schema exactly as a tool's `input` is converted (`io: "input"`, lenient
 * types widened), or returns a JSON Schema object as it is; `ObeliskError("USAGE")` naming `what` for a zod
 * type no JSON value satisfies (naming each field: decision 0015), a zod 3 schema or a non-schema value.
 */
export function toJsonSchema(schema: SchemaInput, options?: ToJsonSchemaOptions): JsonObject;
/** The tool normalization's form: `what` names the schema in messages, `side` picks the hints. */
export function toJsonSchema(schema: unknown, what: string, side?: SchemaSide): JsonObject;
/**
 * Converts a tool schema (zod v4 or JSON Schema) to a JSON Schema object, once.
 * `io: "input"` describes what a caller passes (defaults optional); used for inputs and outputs alike,
 * because a tool returns the un-parsed shape. `z.coerce.*`, `z.preprocess` and `.catch` become "anything"
 * (`{}`): their parse takes values their inner type refuses. Throws `USAGE` for anything else, and for a
 * zod schema with a type no JSON value satisfies where a value must have it (`z.date()`, `z.bigint()`, …,
 * not under a union, `.optional()`, `.nullable()`, `.default()` or `.catch()` JSON can satisfy; `side`
 * picks the hint's advice).
 */
export function toJsonSchema(
  schema: unknown,
  whatOrOptions: string | ToJsonSchemaOptions = {},
  givenSide?: SchemaSide,
): JsonObject {
  const options: ToJsonSchemaOptions =
    typeof whatOrOptions === "string"
      ? { what: whatOrOptions }
      : isPlainObject(whatOrOptions)
        ? whatOrOptions
        : {};
  const what = options.what ?? "schema";
  const side = givenSide ?? options.side ?? "input";
  return convert(schema, what, side, options.jsonSchemaOnly === true, undefined);
}

/**
 * A tool's zod input converted as `toJsonSchema(input, what)` does, with `additionalProperties: false` on
 * each object of `close` (those `nestedStrippingObjects` finds) that does not say otherwise: the schema the
 * compiler checks a call's parameters against and the plan JSON Schema gives, where a key that such an
 * object would drop is refused (decision 0023 §1). The tool's `inputSchema` stays zod's own.
 */
export function toClosedJsonSchema(schema: unknown, what: string, close: ReadonlySet<unknown>): JsonObject {
  return convert(schema, what, "input", false, (context) => {
    const json = context.jsonSchema;
    if (close.has(context.zodSchema) && json !== undefined && json.additionalProperties === undefined)
      json.additionalProperties = false;
  });
}

/** zod types whose parse gives another value than the one checked: the value stored may be anything. */
const REMAKES: ReadonlySet<unknown> = new Set(["pipe", "transform"]);

/**
 * A tool's zod output converted for the value stored, zod's parse of what the tool returned (decision
 * 0052): as `toJsonSchema(output, what, "output")`, with `additionalProperties: false` on each object of
 * `close` (`strippingOutputObjects`) that does not say otherwise, and each pipe or transform (`.transform`,
 * `.pipe`) written as anything (`{}`). What the compiler's reference checks read; the tool's result is
 * still checked against `outputSchema`.
 */
export function toStoredOutputSchema(schema: unknown, what: string, close: ReadonlySet<unknown>): JsonObject {
  return convert(schema, what, "output", false, (context) => {
    const json = context.jsonSchema;
    if (json === undefined) return;
    if (REMAKES.has(definitionOf(context.zodSchema).type))
      for (const key of Object.keys(json)) delete json[key];
    else if (close.has(context.zodSchema) && json.additionalProperties === undefined)
      json.additionalProperties = false;
  });
}

/** What zod's `override` hook is given (the parts read here). */
interface OverrideContext {
  readonly zodSchema: unknown;
  readonly jsonSchema?: Record<string, unknown>;
  readonly path?: readonly (string | number)[];
}

function convert(
  schema: unknown,
  what: string,
  side: SchemaSide,
  jsonSchemaOnly: boolean,
  also: ((context: OverrideContext) => void) | undefined,
): JsonObject {
  if (isZodSchema(schema)) {
    const jsonless = createJsonlessWatch(findJsonlessUses(schema));
    const byCode: string[] = [];
    let converted: JsonObject;
    try {
      converted = zodToJsonSchema(schema, {
        io: "input",
        unrepresentable: "any",
        override: (context) => {
          jsonless.override(context);
          widenLenientSchema(context);
          if (jsonSchemaOnly) noteCheckedByCode(context, byCode);
          else dropSafeIntegerBounds(context);
          also?.(context);
        },
      });
    } catch (error) {
      throw new ObeliskError("USAGE", `${what}: the zod schema cannot be converted to JSON Schema`, {
        cause: error,
      });
    }
    jsonless.refuse(what, side);
    if (byCode.length > 0)
      throw new ObeliskError(
        "USAGE",
        // zod calls the hook inner schemas first: document order reads better
        `${what}: ${byCode.reverse().join(", ")}: checked by code, which a JSON Schema cannot carry, so any value would pass there`,
        {
          hint: "describe the value with JSON Schema types (z.string(), z.object(), …), and check the rest in the tool that writes it",
        },
      );
    return converted;
  }
  if (isPlainObject(schema)) {
    // A zod 3 schema is an object too: taken for a JSON Schema, it failed as "data/required must be array".
    if (isZod3Schema(schema))
      throw new ObeliskError(
        "USAGE",
        `${what}: zod 3 schemas are not supported: use zod ≥ 4 or a JSON Schema`,
        { hint: 'install zod ≥ 4 and import { z } from "zod" (not "zod/v3"), or give a JSON Schema object' },
      );
    return schema as JsonObject;
  }
  if (schema === true) return {};
  throw new ObeliskError("USAGE", `${what}: expected a zod schema or a JSON Schema object`, {
    hint: 'e.g. z.object({ text: z.string() }), or { "type": "object", "properties": { "text": { "type": "string" } } }',
  });
}

/** A zod check's definition, as far as the bounds of a number are read here. */
interface BoundCheck {
  readonly check?: unknown;
  readonly value?: unknown;
}

/**
 * Removes the bounds zod writes for every safe integer (`z.number().int()`, `z.int()`: `minimum`
 * -9007199254740991, `maximum` 9007199254740991) from a converted integer, keeping one the schema states
 * itself (`.min(Number.MIN_SAFE_INTEGER)`): they are tokens with no information in every schema a model
 * reads, and zod still checks them where the tool parses its input and output. Not for a schema checked
 * by JSON Schema alone (`jsonSchemaOnly`: a state schema), where they are the check.
 */
function dropSafeIntegerBounds(context: OverrideContext): void {
  const json = context.jsonSchema;
  if (json?.type !== "integer") return;
  const { checks } = definitionOf(context.zodSchema) as { readonly checks?: unknown };
  const written = (check: string, value: number): boolean =>
    Array.isArray(checks) &&
    checks.some((each) => {
      const bound = definitionOf(each) as BoundCheck;
      return bound.check === check && bound.value === value;
    });
  if (json.minimum === Number.MIN_SAFE_INTEGER && !written("greater_than", Number.MIN_SAFE_INTEGER))
    delete json.minimum;
  if (json.maximum === Number.MAX_SAFE_INTEGER && !written("less_than", Number.MAX_SAFE_INTEGER))
    delete json.maximum;
}

/** Notes (as `field is z.custom()…`) a schema converted whose zod type is checked by code. */
function noteCheckedByCode(
  context: { readonly zodSchema: unknown; readonly path?: readonly (string | number)[] },
  out: string[],
): void {
  const type = definitionOf(context.zodSchema).type;
  const written = typeof type === "string" ? CHECKED_BY_CODE[type] : undefined;
  if (written === undefined) return;
  const field = fieldPath(Array.isArray(context.path) ? context.path : []);
  out.push(`${field === "" ? "the schema" : field} is ${written}`);
}
