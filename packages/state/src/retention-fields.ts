import type { RetentionPolicy } from "./store-types.js";

/**
 * Every field of a `RetentionPolicy`, for checking options by name (a new field is a compile error here
 * until it is listed): the stores' factories and `createEngine` refuse any other.
 */
export const RETENTION_FIELDS = {
  maxVariables: true,
  maxBytes: true,
  maxAgeMs: true,
  maxCallOutputs: true,
  maxCallOutputBytes: true,
  maxCallOutputAgeMs: true,
} as const satisfies Record<keyof RetentionPolicy, true>;
