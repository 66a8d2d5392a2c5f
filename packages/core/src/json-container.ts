import type { JsonArray, JsonObject, JsonValue } from "./json-value.js";

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a JSON array. */
export function isJsonArray(value: JsonValue | undefined): value is JsonArray {
  return Array.isArray(value);
}

/**
 * Sets `key` as an own, enumerable data property: by assignment, except a key named `__proto__`, which
 * is defined (an assignment would go through the prototype setter and change the object's prototype).
 */
export function setOwn<T>(target: Record<string | number, T>, key: string | number, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * Defines `key` as an own, enumerable data property of a freshly built object. Never goes through a
 * setter, so a key named `__proto__` stays plain data and cannot change the object's prototype.
 */
export function defineOwn(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
