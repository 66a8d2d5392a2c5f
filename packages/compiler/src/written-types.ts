import type { OutputTarget, Reference } from "@obelisk/core";
import { getAtPath, isJsonObject } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import { firstValueTypes } from "./check-output-method-value.js";
import type { WriterLink } from "./compiled-plan.js";
import type { PlanBuilder } from "./plan-builder.js";
import { jsonTypeOf, schemaAtPath, schemaTypes } from "./schema-types.js";

/** JSON types a value may have (undefined: unknown). */
export type Types = Set<string> | undefined;

/** The union of type sets (undefined when any is unknown). Type sets are never changed once made. */
export function union(sets: Types[]): Types {
  for (const set of sets) if (set === undefined) return undefined;
  if (sets.length === 1) return sets[0];
  const result = new Set<string>();
  for (const set of sets) for (const type of set as Set<string>) result.add(type);
  return result;
}

/**
 * Types the writers of an operand can put at its path, by its writer list (a writer group's list is shared
 * by every reader of one text, so one answer serves them all: the check touches several objects of each
 * writer, which in a large plan are far apart in memory).
 */
export type WrittenTypesCache = Map<readonly WriterLink[], Set<string> | null>;

/** Types the writers of an operand can put at its path (undefined when any is unknown). */
export function writtenTypes(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  reference: Reference,
  cache: WrittenTypesCache,
): Types {
  // No compiled call declares what it writes, no state schema narrows it and some writer does not leave
  // a known container: unknown, without the lookup.
  if (
    !builder.typedWriters &&
    builder.settings.context.stateSchema === undefined &&
    !shapesContainers(builder, links, reference)
  )
    return undefined;
  // One lookup: an unknown answer is kept as null.
  const known = cache.get(links);
  if (known !== undefined) return known ?? undefined;
  const types = withStateSchema(builder, reference, computeWrittenTypes(builder, links, reference));
  cache.set(links, types ?? null);
  return types;
}

/** What an accumulating method leaves at its target when it applies (merge: see `mergedTypes`). */
const ARRAY: Set<string> = new Set(["array"]);
const OBJECT: Set<string> = new Set(["object"]);
const ARRAY_OR_OBJECT: Set<string> = new Set(["array", "object"]);
/** The container push, concat and assign leave at their target when they apply. */
const CONTAINER_OF: Readonly<Record<"push" | "concat" | "assign", Set<string>>> = {
  push: ARRAY,
  concat: ARRAY,
  assign: OBJECT,
};

/**
 * True when every writer of an operand leaves a container of a known kind at its path whatever its value
 * (an accumulating method at the path, or a write below it): only then are untyped writers' types known.
 * A valid plan's set writer is an operand's only writer, so this stops at the first link.
 */
function shapesContainers(builder: PlanBuilder, links: readonly WriterLink[], reference: Reference): boolean {
  for (const link of links) {
    const writer = builder.entries.get(link.callId);
    if (writer === undefined) return false;
    const method = writer.call.outputMethod;
    for (const alternative of link.alternatives)
      for (const target of writer.alternatives[alternative] ?? [])
        if (
          target.path.length < reference.path.length ||
          (target.path.length === reference.path.length && (method === "set" || method === "merge"))
        )
          return false;
  }
  return true;
}

/**
 * Types the write of `writer` to `target` below the operand's path leaves at it (decision 0114): an object
 * for a name segment (a missing value is created as one, an array or scalar refuses the write), an array
 * for an index (created for a missing value) — or the stored object it names a key of, when the state may
 * hold one there. A reader of a negative index is unknown (`[-1]` may be another item), as is `†calls`.
 */
function belowTypes(builder: PlanBuilder, target: OutputTarget, reference: Reference): Types {
  // `†calls` whole names no value (REF_UNRESOLVED)
  if (reference.kind === "calls") return undefined;
  for (const segment of reference.path) if (typeof segment === "number" && segment < 0) return undefined;
  if (typeof target.path[reference.path.length] === "string") return OBJECT;
  const state = builder.settings.context.state;
  if (reference.kind !== "state" || state === undefined) return ARRAY_OR_OBJECT;
  const stored = getAtPath(state, reference.path);
  return stored.found && isJsonObject(stored.value) ? OBJECT : ARRAY;
}

/**
 * Types a `merge` at the operand's path leaves: an object when it merges, its value when the path is
 * missing (the first alternative's value types; another alternative's value is unknown).
 */
function mergedTypes(builder: PlanBuilder, writer: CallEntry, alternative: number): Types {
  if (alternative !== 0) return undefined;
  const value = firstValueTypes(
    writer.tool,
    writer.call.hasOutput,
    writer.call.output,
    builder.declaredTypes,
  );
  return value === undefined ? undefined : union([value, OBJECT]);
}

/** `writtenTypes` without the cache. */
function computeWrittenTypes(
  builder: PlanBuilder,
  links: readonly WriterLink[],
  reference: Reference,
): Types {
  const sets: Types[] = [];
  for (const link of links) {
    const writer = builder.entries.get(link.callId);
    if (writer === undefined) return undefined;
    const method = writer.call.outputMethod;
    for (const alternative of link.alternatives) {
      for (const target of writer.alternatives[alternative] ?? []) {
        if (target.kind !== reference.kind) return undefined;
        // A write below the path, or an accumulating one at it, leaves a container whatever its value: a
        // writer that fails blocks its readers (SPEC §6), so what it leaves when it applies is what they read.
        if (target.path.length > reference.path.length) {
          sets.push(belowTypes(builder, target, reference));
          continue;
        }
        if (method !== "set") {
          if (target.path.length < reference.path.length) return undefined;
          sets.push(method === "merge" ? mergedTypes(builder, writer, alternative) : CONTAINER_OF[method]);
          continue;
        }
        // Only the first alternative's value is known: it is checked against the output schema at run time,
        // while a `branch(k, value)` for k ≥ 1 may hold any JSON and the last of two or more gets the error.
        if (alternative !== 0) return undefined;
        const output = writer.call.hasOutput
          ? undefined
          : (writer.tool.storedOutputSchema ?? writer.tool.outputSchema);
        if (writer.call.hasOutput) {
          const found = getAtPath(writer.call.output, reference.path.slice(target.path.length));
          sets.push(found.found ? new Set([jsonTypeOf(found.value)]) : undefined);
          continue;
        }
        if (output === undefined) return undefined;
        sets.push(
          schemaTypes(
            schemaAtPath(output, reference.path.slice(target.path.length)),
            output,
            builder.declaredTypes,
          ),
        );
      }
    }
  }
  return union(sets);
}

/** The types both `types` and `schema` admit (integer for number against integer); either may be unknown. */
function intersect(types: Types, schema: Types): Types {
  if (types === undefined || schema === undefined) return types ?? schema;
  const both = new Set<string>();
  for (const type of types) {
    if (schema.has(type)) both.add(type);
    else if (type === "number" ? schema.has("integer") : type === "integer" && schema.has("number"))
      both.add("integer");
  }
  return both;
}

/**
 * Written types of a `†state` path narrowed by the state schema there: every write is checked against it
 * at run time (SPEC §5), so the value read has one of its types too, whatever the writer's (unknown) type.
 * No common type (the writer can only break the schema, reported at its `_outputPath`): the writer's types
 * stay, so its readers are reported as before.
 */
function withStateSchema(builder: PlanBuilder, reference: Reference, types: Types): Types {
  const stateSchema = builder.settings.context.stateSchema;
  if (stateSchema === undefined || reference.kind !== "state") return types;
  const schema = schemaTypes(schemaAtPath(stateSchema, reference.path), stateSchema, builder.declaredTypes);
  const both = intersect(types, schema);
  return both !== undefined && both.size === 0 ? types : both;
}
