import type { Reference } from "@obelisk/core";
import { getAtPath } from "@obelisk/core";
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
  // No compiled call declares what it writes and no state schema narrows it: unknown, without the lookup.
  if (!builder.typedWriters && builder.settings.context.stateSchema === undefined) return undefined;
  // One lookup: an unknown answer is kept as null.
  const known = cache.get(links);
  if (known !== undefined) return known ?? undefined;
  const types = withStateSchema(builder, reference, computeWrittenTypes(builder, links, reference));
  cache.set(links, types ?? null);
  return types;
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
    if (writer === undefined || writer.call.outputMethod !== "set") return undefined;
    for (const alternative of link.alternatives) {
      // Only the first alternative's value is known: it is checked against the output schema at run time,
      // while a `branch(k, value)` for k ≥ 1 may hold any JSON and the last of two or more gets the error.
      if (alternative !== 0) return undefined;
      for (const target of writer.alternatives[alternative] ?? []) {
        if (target.kind !== reference.kind || target.path.length > reference.path.length) return undefined;
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
