import { definitionOf, type ZodDefinition } from "./jsonless-kinds.js";

/** Wrappers whose value is their inner type's (or absent, or `null`): what holds for it holds for them. */
const WRAPPERS: ReadonlySet<unknown> = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "readonly",
  "nonoptional",
]);

function isSchema(value: unknown): boolean {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/** True for a `z.object` that drops the keys it does not declare (no catchall; not strict, not loose). */
function strips(definition: ZodDefinition): boolean {
  return definition.type === "object" && definition.catchall === undefined;
}

interface Walk {
  /** Walk a pipe's input side (a tool's input: zod checks what is given there); else stop at a pipe. */
  readonly throughPipes: boolean;
  readonly stripping: Set<unknown>;
  /** Objects met as a member of a union or an intersection (at any wrapper depth): never closed. */
  readonly chosen: Set<unknown>;
  /** Schemas walked, each once per `inChoice` (a recursive `z.lazy` schema ends). */
  readonly seen: Set<unknown>;
  readonly seenInChoice: Set<unknown>;
}

/** The schemas inside `definition` a value's parts are checked against (object keys, items, record values). */
function partsOf(definition: ZodDefinition): readonly unknown[] {
  const parts: unknown[] = [];
  if (definition.type === "object") parts.push(...Object.values((definition.shape ?? {}) as object));
  parts.push(definition.element, definition.valueType, definition.rest);
  if (Array.isArray(definition.items)) parts.push(...definition.items);
  return parts.filter(isSchema);
}

function walk(schema: unknown, state: Walk, inChoice: boolean): void {
  if (!isSchema(schema)) return;
  const seen = inChoice ? state.seenInChoice : state.seen;
  if (seen.has(schema)) return;
  seen.add(schema);
  const definition = definitionOf(schema);
  const type = definition.type;
  if (WRAPPERS.has(type)) {
    walk(definition.innerType, state, inChoice);
    return;
  }
  if (type === "lazy" && typeof definition.getter === "function") {
    // zod writes a recursive schema once (a definition the recursion refers to), and may hand its hook
    // the lazy schema for that node: it is closed with the object it stands for.
    const inner = definition.getter();
    walk(inner, state, inChoice);
    if (state.stripping.has(inner)) state.stripping.add(schema);
    if (state.chosen.has(inner)) state.chosen.add(schema);
    return;
  }
  // zod parses a pipe's input side first (`io: "input"` converts that side); `.catch` and the lenient
  // forms are written as "anything" and are not walked.
  if (type === "pipe") {
    if (state.throughPipes) walk(definition.in, state, inChoice);
    return;
  }
  if (type === "union" && Array.isArray(definition.options)) {
    for (const option of definition.options) walk(option, state, true);
    return;
  }
  if (type === "intersection") {
    walk(definition.left, state, true);
    walk(definition.right, state, true);
    return;
  }
  if (strips(definition)) (inChoice ? state.chosen : state.stripping).add(schema);
  for (const part of partsOf(definition)) walk(part, state, false);
}

/**
 * The `z.object` schemas below a tool's zod input (not the input itself: the compiler checks its keys,
 * `checkStrippedParam`) that drop the keys they do not declare, so that a misspelt key in a nested object
 * reaches the tool as nothing. Found through object properties, array and tuple items, record values and
 * the wrappers `.optional()`, `.nullable()`, `.default()`, `z.lazy`, pipes' input side. Not the members of
 * a union or an intersection: which member zod keeps, and so which keys it drops, depends on the value,
 * and closing a member would refuse values zod accepts (an extra key is dropped by the member that
 * matches). Empty when the input is not a zod schema.
 */
export function nestedStrippingObjects(input: unknown): ReadonlySet<unknown> {
  const state = strippingWalk(input, true);
  state.stripping.delete(input);
  // The top object may sit inside wrappers (`z.object(…).optional()` as a tool's input is unusual, but
  // its keys are the parameters either way).
  let root: unknown = input;
  while (WRAPPERS.has(definitionOf(root).type)) root = definitionOf(root).innerType;
  state.stripping.delete(root);
  for (const schema of state.chosen) state.stripping.delete(schema);
  return state.stripping;
}

/** The walk of `schema` (none when it is not a zod schema), unions' and intersections' members set apart. */
function strippingWalk(schema: unknown, throughPipes: boolean): Walk {
  const state: Walk = {
    throughPipes,
    stripping: new Set(),
    chosen: new Set(),
    seen: new Set(),
    seenInChoice: new Set(),
  };
  if (isSchema(schema)) walk(schema, state, false);
  return state;
}

/**
 * The `z.object` schemas of a tool's zod output, the top one included, whose parse certainly drops the keys
 * they do not declare from the value stored (decision 0052): as {@link nestedStrippingObjects} finds them,
 * but not below a pipe or a transform (what is stored there is what the pipe's output side makes of it).
 */
export function strippingOutputObjects(output: unknown): ReadonlySet<unknown> {
  const state = strippingWalk(output, false);
  for (const schema of state.chosen) state.stripping.delete(schema);
  return state.stripping;
}
