import type { Path, Reference } from "@obelisk/core";
import { formatReference } from "@obelisk/core";
import type { CallEntry } from "./builder-types.js";
import type { PlanBuilder } from "./plan-builder.js";
import { IN_PLACE } from "./schema-excludes-path.js";
import { childSchema, resolveRef } from "./schema-types.js";
import { isPlainObject } from "./to-json-schema.js";
import { judgeEveryWriterAbove } from "./writers-above.js";

/** A read of a name every writer's output schema declares but does not require. */
export interface OptionalRead {
  /** The operand read. */
  readonly operand: Reference;
  /** `the output schema of call "u" (fetchUser)`. */
  readonly whose: string;
  /** Index in the operand's path of the optional name. */
  readonly index: number;
  /** A name the same level requires, to read when the optional one is absent (none: undefined). */
  readonly required?: string;
}

/** The level's `required` names, when it lists them. */
function requiredNames(level: Record<string, unknown>): readonly unknown[] {
  return Array.isArray(level.required) ? level.required : [];
}

/**
 * The first name of `path` that `root` declares in `properties` but not in `required`, with no `default`
 * (a zod output's `.default()` is filled by its parse), at a plain level (no `allOf` / `anyOf` / `oneOf` /
 * `if`… that could require it): the value may lack it. An array index, a level not plain or a name not
 * declared ends the walk (REF_UNRESOLVED and the near-name warning judge those).
 */
function optionalName(root: unknown, path: Path): { index: number; required?: string } | undefined {
  let current = resolveRef(root, root);
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    if (!isPlainObject(current) || typeof segment !== "string") return undefined;
    const level = current;
    if (IN_PLACE.some((keyword) => level[keyword] !== undefined)) return undefined;
    const properties = level.properties;
    if (!isPlainObject(properties) || !Object.hasOwn(properties, segment)) return undefined;
    const child = resolveRef(childSchema(level, segment), root);
    const required = requiredNames(level);
    if (!required.includes(segment)) {
      if (!isPlainObject(child) || child.default !== undefined) return undefined;
      const other = required.find((name): name is string => typeof name === "string");
      return other === undefined ? { index } : { index, required: other };
    }
    current = child;
  }
  return undefined;
}

/**
 * The read of `operand` when its every in-plan writer writes a path above it with `set` and that writer's
 * output schema marks a name on the way optional: when the writer leaves it out, the call ends blocked
 * (the run still succeeds). A latent call's `_output` is a value (REF_UNRESOLVED judges it); a writer
 * without an output schema, or one that may write the path itself, keeps it quiet.
 */
export function optionalRead(
  builder: PlanBuilder,
  entry: CallEntry,
  operand: Reference,
): OptionalRead | undefined {
  const links = entry.writers.get(operand.text);
  if (links === undefined || links.length === 0) return undefined;
  return judgeEveryWriterAbove(builder, links, operand, (writer, rest) => {
    const output = writer.tool.storedOutputSchema ?? writer.tool.outputSchema;
    if (writer.call.hasOutput || output === undefined) return undefined;
    const name = optionalName(output, rest);
    if (name === undefined) return undefined;
    const whose = `the output schema of call "${writer.id}" (${writer.tool.name})`;
    return { operand, whose, ...name, index: operand.path.length - rest.length + name.index };
  });
}

/** The reference with its optional name replaced by the required one (`†state.u.name`), when there is one. */
export function fallbackReference(read: OptionalRead): string | undefined {
  if (read.required === undefined) return undefined;
  const path = read.operand.path.slice(0, read.index + 1);
  path[read.index] = read.required;
  return formatReference(read.operand.kind, path);
}
