import type { JsonValue } from "@obelisk/core";
import { itemCount, jsonByteSize, jsonTypeOf, previewValue } from "@obelisk/core";
import type { VariableMeta } from "../store-types.js";

/** Longest preview stored per variable, in characters (summaries shrink it further). */
export const STORED_PREVIEW_CHARS = 240;

/** The value-derived part of variable metadata: type, size, item count, bounded preview. */
export type ValueFacts = Pick<VariableMeta, "type" | "bytes" | "count" | "countUnit" | "preview">;

const PREVIEW_OPTIONS = Object.freeze({ maxChars: STORED_PREVIEW_CHARS });

/**
 * The stored preview of a value (bounded by {@link STORED_PREVIEW_CHARS}). A number, boolean or null is
 * its JSON text, as `previewValue` writes it (at most 24 characters, within the bound): given here without
 * the walk's two objects (one preview per written variable).
 */
export function storedPreview(value: JsonValue): string {
  switch (typeof value) {
    case "number":
      if (Number.isFinite(value)) return String(value);
      break;
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      break;
  }
  return previewValue(value, PREVIEW_OPTIONS).text;
}

/**
 * Computes type, bytes, count and a bounded preview of a value (the preview never serialises the whole
 * value). Pass `bytes` when the JSON size is already known (e.g. from `toJsonValue`) to skip the size walk.
 */
export function describeValue(value: JsonValue, bytes?: number): ValueFacts {
  const type = jsonTypeOf(value);
  const size = bytes ?? jsonByteSize(value);
  const preview = storedPreview(value);
  const counted = itemCount(value);
  return counted === undefined
    ? { type, bytes: size, preview }
    : { type, bytes: size, preview, count: counted.count, countUnit: counted.unit };
}
