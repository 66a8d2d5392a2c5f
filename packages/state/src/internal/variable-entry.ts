import type { JsonValue, Path } from "@obelisk/core";
import { itemCountOf, itemUnitOf, jsonByteSize, jsonTypeOf } from "@obelisk/core";
import type { StateWrite, VariableMeta } from "../store-types.js";
import { describeValue, storedPreview, type ValueFacts } from "./describe-value.js";
import type { SizeDelta } from "./size-delta.js";
import type { VariableEntry } from "./thread-model.js";

/** Who wrote a variable and when: one per commit, shared by the variables it writes. */
export interface Writer {
  /** The writer as stored in the metadata (one object shared by the commit's variables). */
  readonly call: VariableMeta["writer"];
  readonly runId: string;
  readonly description: string | undefined;
  readonly date: string;
  readonly nowMs: number;
}

/**
 * Builds (or refreshes) a variable entry for the value now at `path` (`bytes`, `items`, `knownPreview`: its
 * size, count and preview, when known).
 */
export function variableFor(
  previous: VariableEntry | undefined,
  scope: VariableMeta["scope"],
  reference: string,
  path: Path,
  value: JsonValue,
  writer: Writer,
  touch: number,
  bytes?: number,
  items?: number,
  knownPreview?: string,
): VariableEntry {
  const type = jsonTypeOf(value);
  const size = bytes ?? jsonByteSize(value);
  const preview = knownPreview ?? storedPreview(value);
  const createdAt = previous?.meta.createdAt ?? writer.date;
  const version = (previous?.meta.version ?? 0) + 1;
  const count = items ?? itemCountOf(value);
  const { call, runId, date: updatedAt } = writer;
  // a write without a description keeps the variable's (M3: appending to a described list kept nothing)
  const description = writer.description ?? previous?.meta.description;
  // One literal per combination of the optional fields, all in the metadata's documented key order: no
  // object grown field by field (that moves its fields to a separate, grown property store).
  let meta: VariableMeta;
  if (count === undefined)
    meta =
      description === undefined
        ? { reference, scope, type, bytes: size, preview, writer: call, runId, createdAt, updatedAt, version }
        : {
            reference,
            scope,
            type,
            bytes: size,
            preview,
            description,
            writer: call,
            runId,
            createdAt,
            updatedAt,
            version,
          };
  else {
    const countUnit = itemUnitOf(value);
    meta =
      description === undefined
        ? {
            reference,
            scope,
            type,
            bytes: size,
            preview,
            count,
            countUnit,
            writer: call,
            runId,
            createdAt,
            updatedAt,
            version,
          }
        : {
            reference,
            scope,
            type,
            bytes: size,
            preview,
            count,
            countUnit,
            description,
            writer: call,
            runId,
            createdAt,
            updatedAt,
            version,
          };
  }
  return { meta, path, touch, updatedMs: writer.nowMs };
}

/**
 * An ancestor variable whose value changed because something below it was written: new facts, same writer,
 * run id and description (they name the write of the path itself).
 */
export function refreshed(
  entry: VariableEntry,
  value: JsonValue,
  writer: { readonly date: string; readonly nowMs: number },
  touch: number,
  delta?: SizeDelta,
): VariableEntry {
  const { count: _count, countUnit: _unit, ...kept } = entry.meta;
  const meta: VariableMeta = {
    ...kept,
    ...(delta === undefined ? describeValue(value) : resizedFacts(entry, value, delta)),
    updatedAt: writer.date,
    version: entry.meta.version + 1,
  };
  return { meta, path: entry.path, touch, updatedMs: writer.nowMs };
}

/**
 * `describeValue(value)` of an ancestor whose facts were current before a write below it, from those facts
 * and the write's {@link SizeDelta}: its size moved by the delta, its key count by one when the write added
 * a key to it (an array's count is its length); only the bounded preview looks at the value.
 */
function resizedFacts(entry: VariableEntry, value: JsonValue, delta: SizeDelta): ValueFacts {
  const type = jsonTypeOf(value);
  const bytes = entry.meta.bytes + delta.bytes;
  const preview = storedPreview(value);
  const count = Array.isArray(value)
    ? value.length
    : (entry.meta.count ?? 0) + (delta.grewAt === entry.path.length ? 1 : 0);
  return { type, bytes, preview, count, countUnit: itemUnitOf(value) };
}

/**
 * The JSON size of the value now at a written path when it is known without walking it: the written value
 * itself (`set`, or a method that found nothing there), or an append to an array whose variable is current.
 */
export function knownBytes(
  previous: VariableEntry | undefined,
  write: StateWrite,
  bytes: number,
  now: JsonValue,
): number | undefined {
  if (now === write.value) return bytes;
  if (previous === undefined || previous.meta.type !== "array" || !Array.isArray(now)) return undefined;
  const before = previous.meta.count ?? 0;
  if (write.method === "push")
    return now.length === before + 1 ? previous.meta.bytes + bytes + (before > 0 ? 1 : 0) : undefined;
  if (write.method !== "concat" || !Array.isArray(write.value)) return undefined;
  const added = write.value.length;
  if (now.length !== before + added) return undefined;
  return previous.meta.bytes + (added === 0 ? 0 : bytes - 2 + (before > 0 ? 1 : 0));
}
