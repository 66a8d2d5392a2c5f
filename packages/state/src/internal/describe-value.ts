import type { JsonValue } from "@obelisk/core";
import { itemCount, jsonByteSize, jsonTypeOf, previewValue } from "@obelisk/core";
import type { VariableMeta } from "../store-types.js";

/** Longest preview stored per variable, in characters (summaries shrink it further). */
export const STORED_PREVIEW_CHARS = 240;

/** The value-derived part of variable metadata: type, size, item count, bounded preview. */
export type ValueFacts = Pick<VariableMeta, "type" | "bytes" | "count" | "countUnit" | "preview">;

/**
 * Computes type, bytes, count and a bounded preview of a value (the preview never serialises the whole
 * value). Pass `bytes` when the JSON size is already known (e.g. from `toJsonValue`) to skip the size walk.
 */
export function describeValue(value: JsonValue, bytes?: number): ValueFacts {
  return describeValueInto({}, value, bytes);
}

/** {@link describeValue} written into `target` (after its own fields), so callers build one object, not two. */
export function describeValueInto<T extends object>(
  target: T,
  value: JsonValue,
  bytes?: number,
): T & ValueFacts {
  const facts = target as T & { -readonly [K in keyof ValueFacts]: ValueFacts[K] };
  facts.type = jsonTypeOf(value);
  facts.bytes = bytes ?? jsonByteSize(value);
  facts.preview = previewValue(value, { maxChars: STORED_PREVIEW_CHARS }).text;
  const counted = itemCount(value);
  if (counted !== undefined) {
    facts.count = counted.count;
    facts.countUnit = counted.unit;
  }
  return facts;
}
