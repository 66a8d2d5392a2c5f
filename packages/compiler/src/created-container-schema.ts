import type { JsonObject, Path } from "@obelisk/core";
import { formatReference } from "@obelisk/core";
import { childSchema, type DeclaredTypes, resolveRef, schemaTypes } from "./schema-types.js";
import { isPlainObject } from "./to-json-schema.js";

/** A container a write creates that the state schema certainly types otherwise: where, and what to say. */
export interface CreatedMismatch {
  /** How many segments of the path lead to the created container. */
  readonly depth: number;
  readonly reason: string;
  readonly hint: string;
}

/** One step of `schemaAtPath`: the sub-schema below `schema` at `segment`, undefined once not certain. */
function stepInto(schema: unknown, segment: string | number, root: unknown): unknown {
  if (!isPlainObject(schema) || schema.anyOf !== undefined || schema.oneOf !== undefined) return undefined;
  return resolveRef(childSchema(schema, segment), root);
}

/**
 * The first container a write of `path` creates below `missing` (the length of the first prefix the stored
 * state does not hold) that the state schema certainly types as the other kind of container: core creates
 * an array for an index and an object for a name (decision 0003), and the run's schema check then refuses
 * it after the tool ran (`†state.a[0]` with `a` missing and typed `object`). Types the schema leaves open,
 * or only scalars (the state-schema check's `belowScalar` says those), are not judged. Decision 0107.
 */
export function createdContainerMismatch(
  root: JsonObject,
  declaredTypes: DeclaredTypes,
  path: Path,
  missing: number,
): CreatedMismatch | undefined {
  let schema: unknown = resolveRef(root, root);
  for (let depth = 0; depth < missing && schema !== undefined; depth++)
    schema = stepInto(schema, path[depth] as string | number, root);
  for (let depth = missing; depth < path.length && schema !== undefined; depth++) {
    const segment = path[depth] as string | number;
    const created = typeof segment === "number" ? "array" : "object";
    const types = schemaTypes(schema, root, declaredTypes);
    if (types !== undefined && !types.has(created) && (types.has("object") || types.has("array"))) {
      const gone = formatReference("state", path.slice(0, missing));
      const here = formatReference("state", path.slice(0, depth));
      const made = depth === missing ? `creates an ${created} there` : `creates ${here} as an ${created}`;
      const needs = [...types].join(" or ");
      const reason = `the thread's state holds nothing at ${gone}, and the write ${made}, which the state schema types as ${needs}`;
      const hint =
        created === "array"
          ? `the state schema wants ${needs} at ${here}: write a name below it, not an index`
          : `the state schema wants ${needs} at ${here}: write an index below it (${here}[0]), not a name`;
      return { depth, reason, hint };
    }
    schema = stepInto(schema, segment, root);
  }
  return undefined;
}
