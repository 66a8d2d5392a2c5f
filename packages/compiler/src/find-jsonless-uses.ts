import { definitionOf, jsonlessKind, type ZodDefinition } from "./jsonless-kinds.js";

/** Where a zod schema's jsonless types (`z.date()`, `z.bigint()`, …) stand, as zod schema objects. */
export interface JsonlessUses {
  /** Those a value must have: no JSON value satisfies the whole schema because of them (refused). */
  readonly required: ReadonlySet<unknown>;
  /** Those met where they constrain a value (not under `.catch` / `z.preprocess`): JSON can never match them. */
  readonly constrained: ReadonlySet<unknown>;
  /** Those under `.catch` / `z.preprocess`, where any value passes: their JSON Schema stays "anything". */
  readonly free: ReadonlySet<unknown>;
}

interface Walk {
  readonly constrained: Set<unknown>;
  readonly free: Set<unknown>;
  /** Schemas being walked (a recursive schema is taken as satisfiable where it recurs). */
  readonly active: Set<unknown>;
}

const NONE: readonly unknown[] = [];

/** The wrappers that let a value be left out or be `null`: a jsonless inner type is no longer required. */
const ALTERNATIVES: ReadonlySet<unknown> = new Set(["optional", "nullable", "default", "prefault"]);

/** The wrappers whose value must satisfy their inner type. */
const PASS_THROUGH: ReadonlySet<unknown> = new Set(["readonly", "nonoptional", "promise", "lazy"]);

function isSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}

function innerOf(definition: ZodDefinition): unknown {
  if (definition.type === "lazy" && typeof definition.getter === "function") return definition.getter();
  return definition.innerType;
}

/** The members of a composite schema a value must satisfy, each (an empty list: none is jsonless). */
function requiredMembers(definition: ZodDefinition, walk: Walk, free: boolean): readonly unknown[] {
  const unmet: unknown[] = [];
  if (definition.type === "object") {
    const shape = (definition.shape ?? {}) as Readonly<Record<string, unknown>>;
    for (const property of Object.values(shape)) {
      const missing = jsonlessIn(property, walk, free);
      // A key a caller may leave out (optional, default) is not required (zod's own `optin`).
      if ((property as { _zod?: { optin?: unknown } })._zod?.optin !== "optional") unmet.push(...missing);
    }
    if (isSchema(definition.catchall)) jsonlessIn(definition.catchall, walk, free);
    return unmet;
  }
  for (const member of [
    definition.element,
    definition.keyType,
    definition.valueType,
    definition.left,
    definition.right,
  ])
    if (isSchema(member)) unmet.push(...jsonlessIn(member, walk, free));
  for (const item of Array.isArray(definition.items) ? definition.items : [])
    unmet.push(...jsonlessIn(item, walk, free));
  if (isSchema(definition.rest)) unmet.push(...jsonlessIn(definition.rest, walk, free));
  return unmet;
}

/**
 * The jsonless schemas that keep any JSON value from satisfying `schema` (empty: some JSON value does).
 * Notes every jsonless schema met in `walk`, as `free` under `.catch` / `z.preprocess` (any value passes).
 */
function jsonlessIn(schema: unknown, walk: Walk, free: boolean): readonly unknown[] {
  if (!isSchema(schema) || walk.active.has(schema)) return NONE;
  const definition = definitionOf(schema);
  if (jsonlessKind(definition) !== undefined) {
    (free ? walk.free : walk.constrained).add(schema);
    return free ? NONE : [schema];
  }
  walk.active.add(schema);
  try {
    const type = definition.type;
    if (type === "catch") {
      jsonlessIn(definition.innerType, walk, true);
      return NONE;
    }
    if (type === "pipe") {
      // z.preprocess(fn, inner): fn turns the JSON value into what inner wants. Otherwise JSON meets `in`.
      const preprocess = definitionOf(definition.in).type === "transform";
      const unmet = jsonlessIn(preprocess ? definition.out : definition.in, walk, free || preprocess);
      return preprocess ? NONE : unmet;
    }
    if (ALTERNATIVES.has(type)) {
      jsonlessIn(definition.innerType, walk, free);
      return NONE;
    }
    if (PASS_THROUGH.has(type)) return jsonlessIn(innerOf(definition), walk, free);
    if (type === "union") {
      const options = Array.isArray(definition.options) ? definition.options : [];
      const unmet = options.map((option) => jsonlessIn(option, walk, free));
      return unmet.some((members) => members.length === 0) ? NONE : unmet.flat();
    }
    return requiredMembers(definition, walk, free);
  } finally {
    walk.active.delete(schema);
  }
}

/**
 * Finds a zod schema's jsonless types and which of them make it unsatisfiable: refused only where a value
 * must have such a type, not under a union member, `.optional()`, `.nullable()`, `.default()` or `.catch()`
 * that JSON can satisfy (decision 0015). Arrays, records and tuples need their items: `z.array(z.date())`
 * counts as required (an empty array is no use to such a tool).
 */
export function findJsonlessUses(schema: unknown): JsonlessUses {
  const walk: Walk = { constrained: new Set(), free: new Set(), active: new Set() };
  const required = new Set(jsonlessIn(schema, walk, false));
  return { required, constrained: walk.constrained, free: walk.free };
}
